import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLEAN_CODE, INPUT_FILE, INPUT_LINES, userCodeCases } from './cases.ts';
import type { CodeNode } from './cases.ts';

const bin = fileURLToPath(new URL('../../../../bin/weir.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weir-user-code-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = join(dir, INPUT_FILE);
const inputRecord = (i: number) => ({ customer: `c${i % 10}`, amount: i % 7 });
writeFileSync(input, Array.from({ length: INPUT_LINES }, (_, i) => JSON.stringify(inputRecord(i)) + '\n').join(''));

const rulesInput = join(dir, 'rules.jsonl');
writeFileSync(rulesInput, `${JSON.stringify({ customer: 'c1', bonus: 1 })}\n`);

const edge = (from: string, to: string, port = 'in') => ({ from: { node: from, port: 'out' }, to: { node: to, port } });
const visits = { id: 'visits', kind: 'fileSource', params: { schema: { customer: 'string', amount: 'number' } } };
const spend = { id: 'spend', kind: 'aggregate', params: { groupBy: ['customer'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'count', as: 'n' }] } };
const viewSink = { id: 'view', kind: 'viewSink', params: {} };
const outputSchema = { customer: 'string', amount: 'number' };

/** The pipeline of each kind of code node, with the code in node m (see cases.ts). */
function pipeline(code: string, node: CodeNode) {
  const shapes: Record<CodeNode, { nodes: object[]; edges: object[] }> = {
    map: { nodes: [visits, { id: 'm', kind: 'map', params: { code } }, spend, viewSink], edges: [edge('visits', 'm'), edge('m', 'spend'), edge('spend', 'view')] },
    process: {
      nodes: [visits, { id: 'by', kind: 'keyBy', params: { key: ['customer'] } }, { id: 'm', kind: 'process', params: { code, outputSchema } }, spend, viewSink],
      edges: [edge('visits', 'by'), edge('by', 'm'), edge('m', 'spend'), edge('spend', 'view')],
    },
    broadcast: {
      nodes: [visits, { id: 'rules', kind: 'fileSource', params: { schema: { customer: 'string', bonus: 'number' } } }, { id: 'm', kind: 'broadcastProcess', params: { ruleKey: 'customer', code, outputSchema } }, spend, viewSink],
      edges: [edge('visits', 'm'), edge('rules', 'm', 'rules'), edge('m', 'spend'), edge('spend', 'view')],
    },
    udaf: {
      nodes: [visits, { id: 'm', kind: 'aggregate', params: { groupBy: ['customer'], aggregates: [{ fn: 'udaf', field: 'amount', as: 'total', code }, { fn: 'count', as: 'n' }] } }, viewSink],
      edges: [edge('visits', 'm'), edge('m', 'view')],
    },
  };
  return { format: 'weir/pipeline', version: 1, name: `user code case (${node})`, ...shapes[node] };
}

let runs = 0;
function weirRun(code: string, args: string[], node: CodeNode = 'map') {
  const n = runs++;
  const file = join(dir, `p${n}.json`);
  writeFileSync(file, JSON.stringify(pipeline(code, node)));
  const out = join(dir, `out${n}`);
  const started = performance.now();
  // stdin is not a terminal here, so an untrusted run cannot ask and must refuse.
  const inputs = ['--input', `visits=${input}`, ...(node === 'broadcast' ? ['--input', `rules=${rulesInput}`] : [])];
  const r = spawnSync(process.execPath, [bin, 'run', file, ...inputs, '--out', out, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return { code: r.status, stderr: r.stderr, out, ms: performance.now() - started };
}

const cleanRuns = new Map<CodeNode, ReturnType<typeof weirRun>>();
const cleanRun = (node: CodeNode) => {
  if (!cleanRuns.has(node)) cleanRuns.set(node, weirRun(CLEAN_CODE[node], ['--trust-code'], node));
  return cleanRuns.get(node)!;
};
const clean = cleanRun('map');
const view = (out: string) => readFileSync(join(out, 'view.view.json'), 'utf8');

describe('user code in weir run', () => {
  it('the clean run works', () => {
    expect(clean.code, clean.stderr).toBe(0);
  });

  for (const c of userCodeCases) {
    it(c.name, () => {
      const mark = join(dir, `mark-${runs}`);
      const node = c.node ?? 'map';
      const r = weirRun(c.code.replaceAll('MARK', mark), [...(c.untrusted ? [] : ['--trust-code']), ...(c.args ?? [])], node);
      expect(r.code, r.stderr).toBe(c.exit);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      if (c.stderr) expect(r.stderr).toMatch(c.stderr);
      if (c.withinMs) expect(r.ms).toBeLessThan(c.withinMs);
      if (c.args?.includes('--parallelism') && !c.args.includes('--chaos')) expect(r.stderr).not.toMatch(/^restart \d/m);
      // A chaos case proves something only if subtasks were really killed and restored.
      if (c.args?.includes('--chaos') && c.exit === 0) expect(r.stderr).toMatch(/restarts: [1-9]/);
      expect(existsSync(mark), 'user code created a file').toBe(false);
      if (c.sameViewAsClean) expect(view(r.out)).toBe(view(cleanRun(node).out));
      if (c.deadLetters) {
        const lines = readFileSync(join(r.out, `${c.deadLetterNode ?? 'm'}.dead-letter.jsonl`), 'utf8').split('\n').filter(Boolean);
        expect(lines).toHaveLength(INPUT_LINES);
        const letters = lines.map((l) => JSON.parse(l) as { reason: string; file?: string; line?: number; source?: string; row?: unknown });
        for (const d of letters) expect(d.reason).toMatch(c.deadLetters);
        if (c.deadLettersAt) {
          for (const d of letters) {
            expect(d, JSON.stringify(d)).toMatchObject({ file: input, source: 'visits' });
            expect(d.row, `line ${d.line}`).toEqual(inputRecord(d.line! - 1));
          }
          expect(new Set(letters.map((d) => d.line)).size).toBe(INPUT_LINES);
        }
      }
    });
  }
});
