// The broken-document corpus: every file in src/testing/fixtures/broken must produce the
// problems expected.json lists for it (and no others), each naming its node or edge and field.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocumentText } from './parse.ts';
import { compile } from './compile.ts';
import type { CompileResult } from './compile.ts';
import type { Problem } from './kindSpec.ts';
import { main } from '../cli/main.ts';

interface Expected {
  code: string;
  target: string | null;
  field: string;
  message: string;
}

const dir = fileURLToPath(new URL('../testing/fixtures/broken', import.meta.url));
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, Expected[]>;
const files = readdirSync(dir)
  .filter((f) => /^\d\d-[a-z0-9-]+\.json$/.test(f))
  .sort();

/** What the CLI and the app do with a file: parse the text safely, then compile. */
function check(file: string): { problems: Problem[]; result: CompileResult | null } {
  const parsed = parseDocumentText(readFileSync(join(dir, file), 'utf8'));
  if (!parsed.ok) return { problems: [parsed.problem], result: null };
  const result = compile(parsed.value);
  return { problems: result.problems, result };
}

const matches = (p: Problem, e: Expected) => p.code === e.code && p.target === e.target && p.field === e.field && p.message.includes(e.message);
const show = (ps: Problem[]) => ps.map((p) => `[${p.code}] ${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('\n');

/** Fields that belong to one node or edge; a problem about them must name it. */
const NODE_OR_EDGE_FIELD = /^(params|inputs|kind|parallelism|position|label|from|to)\b/;

describe('broken-document corpus', () => {
  it('has at least 45 documents, each with its expected problems', () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
    expect(Object.keys(expected).sort()).toEqual(files);
    for (const f of files) expect(expected[f].length, f).toBeGreaterThan(0);
  });

  it.each(files)('%s produces exactly its expected problems', (file) => {
    let out: ReturnType<typeof check> | undefined;
    expect(() => (out = check(file))).not.toThrow();
    const { problems, result } = out!;
    for (const e of expected[file]) expect(problems.some((p) => matches(p, e)), `missing ${JSON.stringify(e)} in\n${show(problems)}`).toBe(true);
    expect(problems.length, `unexpected problems in\n${show(problems)}`).toBe(expected[file].length);
    expect(result?.plan ?? null).toBeNull();
  });

  it.each(files)('%s: every problem names what it is about, in plain words', (file) => {
    for (const p of check(file).problems) {
      const at = `${file}: ${JSON.stringify(p)}`;
      expect(p.message.trim().length, at).toBeGreaterThan(10);
      expect(p.message, at).not.toMatch(/undefined|\[object Object\]|NaN/);
      expect(p.message, at).not.toMatch(/\n\s*at |\.ts:\d+|\.js:\d+|Error:/);
      expect(p.code, at).toMatch(/^[a-z]+(-[a-z]+)*$/);
      if (p.targetType === 'document') {
        expect(p.target, at).toBeNull();
        expect(p.field, at).not.toMatch(NODE_OR_EDGE_FIELD);
      } else {
        expect(typeof p.target === 'string' && p.target.length > 0, at).toBe(true);
      }
      if (p.code !== 'bad-json' && p.code !== 'bad-document') expect(p.field, at).not.toBe('');
    }
  });

  it('covers every kind of fault the validator knows', () => {
    const codes = new Set(files.flatMap((f) => expected[f].map((e) => e.code)));
    for (const code of [
      'bad-json', 'bad-document', 'bad-format', 'bad-version', 'missing-field', 'extra-field', 'bad-settings', 'bad-node', 'bad-edge',
      'bad-id', 'duplicate-id', 'unknown-kind', 'missing-param', 'extra-param', 'bad-param-type', 'bad-param-value', 'bad-param-choice',
      'bad-parallelism', 'unknown-field', 'bad-expression', 'bad-udf', 'dangling-edge', 'bad-port', 'port-taken', 'unconnected-input',
      'source-has-no-inputs', 'sink-has-no-outputs', 'cycle', 'no-event-time', 'not-keyed', 'key-mismatch', 'union-mismatch', 'needs-append-only',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('reports syntax errors with their line and column', () => {
    const syntax = files.filter((f) => /json|parse|syntax/.test(f.replace(/\.json$/, '')));
    expect(syntax.length).toBeGreaterThanOrEqual(5);
    for (const f of syntax) {
      const located = check(f).problems.filter((p) => /bad-json|bad-udf|bad-expression/.test(p.code));
      expect(located.length, f).toBeGreaterThan(0);
      for (const p of located) expect(p.message, f).toMatch(/line \d+, column \d+/);
    }
  });

  it('never lets __proto__ or constructor keys reach a prototype', () => {
    for (const f of files) check(f);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const protoFile = files.find((f) => f.endsWith('-proto-payload.json'))!;
    // The payload keys are dropped while parsing; the node id "__proto__" is refused by name.
    expect(check(protoFile).problems.map((p) => `${p.target} ${p.field} ${p.code}`)).toEqual(['__proto__ id bad-id']);
    const parsed = parseDocumentText(readFileSync(join(dir, protoFile), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.problem.message);
    const doc = parsed.value as { settings: object; nodes: { params: { rows: object[] } }[] };
    for (const o of [doc, doc.settings, doc.nodes[0].params, doc.nodes[0].params.rows[0], doc.nodes[1].params]) {
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      expect(Object.hasOwn(o, '__proto__')).toBe(false);
      expect((o as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('reports all independent problems of one document at once', () => {
    const file = files.find((f) => f.endsWith('-many-problems.json'))!;
    const problems = check(file).problems;
    expect(new Set(problems.map((p) => p.code)).size).toBeGreaterThanOrEqual(9);
    expect(new Set(problems.map((p) => p.target)).size).toBeGreaterThanOrEqual(8);
  });
});

describe('weir validate on broken documents', () => {
  afterEach(() => vi.restoreAllMocks());

  async function validate(file: string): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += a.join(' ') + '\n'));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (err += a.join(' ') + '\n'));
    const code = await main(['validate', file]);
    vi.restoreAllMocks();
    return { code, out, err };
  }

  it.each(['many-problems', 'bad-edges', 'settings-bad-checkpoint', 'udf-does-not-parse', 'malformed-json-trailing-comma', 'cycle-three-nodes'])(
    '%s: exits 1 with one line per problem naming the node or edge and the field',
    async (slug) => {
      const name = files.find((f) => f.endsWith(`-${slug}.json`))!;
      const file = join(dir, name);
      const r = await validate(file);
      expect(r.code).toBe(1);
      expect(r.err).toBe('');
      const lines = r.out.trimEnd().split('\n');
      expect(lines).toHaveLength(expected[name].length);
      for (const e of expected[name]) {
        const head = `${file}: ${e.target ?? '(document)'}${e.field ? ` ${e.field}` : ''}: `;
        expect(lines.some((l) => l.startsWith(head) && l.includes(e.message)), `no line "${head}…${e.message}…" in\n${r.out}`).toBe(true);
      }
    },
  );
});
