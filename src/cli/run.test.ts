import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, generatedPipeline, readJson, readJsonLines, runMain, salesPipeline, tempDir, writeJson, writeLines } from './cliTestKit.ts';

afterAll(removeTempDirs);

describe('weir run with bad input', () => {
  it('dead-letters non-JSON lines, wrong types and missing event time with line numbers, and counts them', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline());
    const lines = [
      '{"customer":"ann","amount":3,"ts":1000}',
      '{"customer":"bob", amount: 2}',
      '',
      '{"customer":"cy","amount":"lots","ts":1200}',
      '{"customer":"dee","amount":1}',
      '{"customer":"eve","amount":1,"ts":"yesterday"}',
      '"just a string"',
      '{"customer":"ann","amount":2,"ts":2000}',
    ];
    const input = writeLines(dir, 'visits.jsonl', lines);
    const out = join(dir, 'out');
    const r = await runMain(['run', file, '--input', `visits=${input}`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    const dead = readJsonLines(join(out, 'visits.dead-letter.jsonl')) as { line: number; reason: string; raw: string }[];
    expect(dead.map((d) => d.line)).toEqual([2, 4, 5, 6, 7]);
    expect(dead.map((d) => d.raw)).toEqual([lines[1], lines[3], lines[4], lines[5], lines[6]]);
    expect(dead[0].reason).toMatch(/not valid JSON/);
    expect(dead[1].reason).toBe('field "amount": expected number, got "lots" (string)');
    expect(dead[2].reason).toMatch(/no event time: field "ts"/);
    expect(dead[3].reason).toMatch(/field "ts": expected a timestamp/);
    expect(dead[4].reason).toMatch(/must be a JSON object/);
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual([{ customer: 'ann', total: 5, visits: 2 }]);
    expect(r.err).toMatch(/source visits \(fileSource\): 2 records read, 5 dead-lettered/);
    expect(r.err).toContain(`first: ${input}:2: not valid JSON`);
    expect(r.err).toMatch(/dead letters: 5 \(visits: 5;/);
  });

  it('reads a CSV with inferred types (its path, or --input), dead-lettering bad lines as file:line', async () => {
    const dir = tempDir();
    const doc = {
      format: 'weir/pipeline', version: 1, name: 'csv',
      nodes: [
        { id: 'src', kind: 'fileSource', params: { path: 'sales.csv' } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
    };
    const file = writeJson(dir, 'p.json', doc);
    const csv = writeLines(dir, 'sales.csv', ['user,amount,ok,ts', 'ann,12.5,true,2024-01-01T00:00:01Z', 'bad-line', '"bob, jr.",3,false,2024-01-01T00:00:02Z']);
    for (const args of [[], ['--input', `src=${csv}`]]) {
      const out = join(dir, `out${args.length}`);
      const r = await runMain(['run', file, ...args, '--out', out]);
      expect(r.code, r.err).toBe(0);
      const rows = (readJsonLines(join(out, 'out.changelog.jsonl')) as { row: Record<string, unknown> }[]).map((e) => e.row);
      expect(rows).toEqual([{ user: 'ann', amount: 12.5, ok: true, ts: '2024-01-01T00:00:01Z' }, { user: 'bob, jr.', amount: 3, ok: false, ts: '2024-01-01T00:00:02Z' }]);
      expect(readJsonLines(join(out, 'src.dead-letter.jsonl'))).toEqual([{ line: 3, reason: 'expected 4 fields (as in the header), got 1', raw: 'bad-line' }]);
      expect(r.err).toContain(`first: ${args.length ? csv : join(dir, 'sales.csv')}:3: expected 4 fields`);
    }
  });

  it('removes a stale dead-letter file when a rerun has none', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline());
    const out = join(dir, 'out');
    await runMain(['run', file, '--input', `visits=${writeLines(dir, 'a.jsonl', ['oops'])}`, '--out', out]);
    expect(existsSync(join(out, 'visits.dead-letter.jsonl'))).toBe(true);
    await runMain(['run', file, '--input', `visits=${writeLines(dir, 'b.jsonl', ['{"customer":"a","amount":1,"ts":1}'])}`, '--out', out]);
    expect(existsSync(join(out, 'visits.dead-letter.jsonl'))).toBe(false);
  });

  it('reports an empty input before running', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline());
    const r = await runMain(['run', file, '--input', `visits=${writeLines(dir, 'empty.jsonl', [])}`, '--out', join(dir, 'out')]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/input visits: .*empty\.jsonl is empty: this source will produce no records/);
    expect(readJson(join(dir, 'out', 'by_customer.view.json'))).toEqual([]);
  });
});

describe('weir run argument checks', () => {
  it('rejects an --input that names no fileSource node', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline('visits.jsonl'));
    const input = writeLines(dir, 'visits.jsonl', []);
    const unknown = await runMain(['run', file, '--input', `vists=${input}`, '--out', join(dir, 'out')]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/--input vists: no node "vists" in .*; fileSource nodes: visits/);
    const notFile = await runMain(['run', file, '--input', `spend=${input}`, '--out', join(dir, 'out')]);
    expect(notFile.code).toBe(1);
    expect(notFile.err).toMatch(/node "spend" is a aggregate, not a fileSource/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('names a fileSource that has no input at all', async () => {
    const dir = tempDir();
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline()), '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/fileSource "visits" has no input: give --input visits=<file.jsonl> or set params.path/);
  });

  it('reports a missing input file', async () => {
    const dir = tempDir();
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('gone.jsonl')), '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/gone\.jsonl: cannot read the input of "visits": no such file/);
  });

  it('checks --input, --seed and --out values', async () => {
    for (const [args, message] of [
      [['--out', 'o', '--input', 'visits'], /--input takes <sourceId>=<file.jsonl>/],
      [['--out', 'o', '--seed', '-3'], /--seed must be a whole number/],
      [['--out', 'o', '--seed', '1.5'], /--seed must be a whole number/],
      [['--seed', '3'], /--out <dir> is required/],
      [['--out'], /--out needs a value/],
      [['--out', 'o', 'other.json'], /one pipeline file at a time/],
    ] as const) {
      const r = await runMain(['run', 'p.json', ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(message);
    }
  });
});

describe('weir run failures', () => {
  it('exits 2 with the error and no stack trace when results cannot be written', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    mkdirSync(join(out, 'revenue.changelog.jsonl'), { recursive: true });
    const r = await runMain(['run', writeJson(dir, 'p.json', generatedPipeline()), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^weir: failed: .*EISDIR/m);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

describe('weir run --seed', () => {
  const files = (out: string) => Object.fromEntries(readdirSync(out).sort().map((f) => [f, readFileSync(join(out, f), 'utf8')]));

  it('gives identical results for the same seed and different results for another', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', generatedPipeline());
    const run = async (seed: string, out: string) => {
      const r = await runMain(['run', file, '--seed', seed, '--out', join(dir, out)]);
      expect(r.code, r.err).toBe(0);
      return files(join(dir, out));
    };
    const a = await run('7', 'a');
    const b = await run('7', 'b');
    const c = await run('8', 'c');
    expect(Object.keys(a)).toEqual(['revenue.changelog.jsonl', 'revenue.view.json']);
    expect(b).toEqual(a);
    expect(c['revenue.view.json']).not.toEqual(a['revenue.view.json']);
    const noSeed = await runMain(['run', file, '--out', join(dir, 'd')]);
    expect(noSeed.code).toBe(0);
    expect(files(join(dir, 'd'))).not.toEqual(a);
  });
});
