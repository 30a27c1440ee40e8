import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INPUT_LINES, userCodeCases } from './cases.ts';

const bin = fileURLToPath(new URL('../../../../bin/weir.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weir-user-code-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = join(dir, 'visits.jsonl');
writeFileSync(input, Array.from({ length: INPUT_LINES }, (_, i) => JSON.stringify({ customer: `c${i % 10}`, amount: i % 7 }) + '\n').join(''));

const pipeline = (code: string) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'user code case',
  nodes: [
    { id: 'visits', kind: 'fileSource', params: { schema: { customer: 'string', amount: 'number' } } },
    { id: 'm', kind: 'map', params: { code } },
    { id: 'spend', kind: 'aggregate', params: { groupBy: ['customer'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'count', as: 'n' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'visits', port: 'out' }, to: { node: 'm', port: 'in' } },
    { from: { node: 'm', port: 'out' }, to: { node: 'spend', port: 'in' } },
    { from: { node: 'spend', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

let runs = 0;
function weirRun(code: string, args: string[]) {
  const n = runs++;
  const file = join(dir, `p${n}.json`);
  writeFileSync(file, JSON.stringify(pipeline(code)));
  const out = join(dir, `out${n}`);
  const started = performance.now();
  // stdin is not a terminal here, so an untrusted run cannot ask and must refuse.
  const r = spawnSync(process.execPath, [bin, 'run', file, '--input', `visits=${input}`, '--out', out, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return { code: r.status, stderr: r.stderr, out, ms: performance.now() - started };
}

const clean = weirRun('(row) => ({ ...row })', ['--trust-code']);
const view = (out: string) => readFileSync(join(out, 'view.view.json'), 'utf8');

describe('user code in weir run', () => {
  it('the clean run works', () => {
    expect(clean.code, clean.stderr).toBe(0);
  });

  for (const c of userCodeCases) {
    it(c.name, () => {
      const mark = join(dir, `mark-${runs}`);
      const r = weirRun(c.code.replaceAll('MARK', mark), [...(c.untrusted ? [] : ['--trust-code']), ...(c.args ?? [])]);
      expect(r.code, r.stderr).toBe(c.exit);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      if (c.stderr) expect(r.stderr).toMatch(c.stderr);
      if (c.withinMs) expect(r.ms).toBeLessThan(c.withinMs);
      if (c.args?.includes('--parallelism')) expect(r.stderr).not.toMatch(/^restart \d/m);
      expect(existsSync(mark), 'user code created a file').toBe(false);
      if (c.sameViewAsClean) expect(view(r.out)).toBe(view(clean.out));
      if (c.deadLetters) {
        const lines = readFileSync(join(r.out, 'm.dead-letter.jsonl'), 'utf8').split('\n').filter(Boolean);
        expect(lines).toHaveLength(INPUT_LINES);
        for (const l of lines) expect((JSON.parse(l) as { reason: string }).reason).toMatch(c.deadLetters);
      }
    });
  }
});
