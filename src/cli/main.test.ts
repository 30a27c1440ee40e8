import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, readJson, readJsonLines, runMain, salesPipeline, tempDir, writeJson, writeLines } from './cliTestKit.ts';

afterAll(removeTempDirs);

const goodLines = [
  '{"customer":"ann","amount":3.5,"ts":1000}',
  '{"customer":"bob","amount":2,"ts":1500}',
  '{"customer":"ann","amount":4,"ts":"1970-01-01T00:00:02Z"}',
];

describe('weir (main)', () => {
  it('prints usage for --help, help <cmd> and <cmd> --help', async () => {
    const top = await runMain(['--help']);
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/weir validate/);
    expect((await runMain(['run', '--help'])).out).toMatch(/--input <sourceId>=<file>/);
    expect((await runMain(['help', 'validate'])).out).toMatch(/Usage: weir validate/);
  });

  it('rejects unknown commands, missing commands and bad options with usage and exit 1', async () => {
    const unknown = await runMain(['frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown command "frobnicate"[\s\S]*Usage:/);
    expect((await runMain([])).code).toBe(1);
    const badFlag = await runMain(['run', 'p.json', '--out', 'x', '--fast']);
    expect(badFlag.code).toBe(1);
    expect(badFlag.err).toMatch(/unknown option --fast[\s\S]*Usage: weir run/);
  });

  it('validates a good pipeline', async () => {
    const dir = tempDir();
    const r = await runMain(['validate', writeJson(dir, 'p.json', salesPipeline())]);
    expect(r).toMatchObject({ code: 0, out: 'ok: spend per customer (4 nodes, 3 edges)\n' });
  });

  it('reports every problem of an invalid pipeline, one line each, and exits 1', async () => {
    const dir = tempDir();
    const doc = salesPipeline();
    doc.nodes[1].params = { groupBy: ['who'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] };
    doc.edges.push({ from: { node: 'spend', port: 'nope' }, to: { node: 'raw', port: 'in' } });
    const file = writeJson(dir, 'bad.json', doc);
    const r = await runMain(['validate', file]);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines).toContain(`${file}: spend params.groupBy[0]: no field "who" upstream; known fields: customer, amount, ts`);
    expect(lines.some((l) => l.startsWith(`${file}: spend.nope->raw.in from.port: `))).toBe(true);
    const run = await runMain(['run', file, '--out', join(dir, 'out')]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${file}: spend params.groupBy[0]:`);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('reports unreadable and non-JSON documents as (document) problems', async () => {
    const dir = tempDir();
    const missing = await runMain(['validate', join(dir, 'none.json')]);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/none\.json: cannot read the pipeline: no such file/);
    const text = writeLines(dir, 'broken.json', ['{ "format": "weir/pipeline",', '  "name": }']);
    const broken = await runMain(['validate', text]);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^.*broken\.json: \(document\): not valid JSON.*\n$/);
  });

  it('runs a pipeline and writes changelogs, views and a summary', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline());
    const input = writeLines(dir, 'visits.jsonl', goodLines);
    const out = join(dir, 'out');
    const r = await runMain(['run', file, '--input', `visits=${input}`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual([
      { customer: 'ann', total: 7.5, visits: 2 },
      { customer: 'bob', total: 2, visits: 1 },
    ]);
    expect(readJsonLines(join(out, 'by_customer.changelog.jsonl'))).toEqual([
      { kind: '+I', row: { customer: 'ann', total: 3.5, visits: 1 } },
      { kind: '+I', row: { customer: 'bob', total: 2, visits: 1 } },
      { kind: '-U', row: { customer: 'ann', total: 3.5, visits: 1 } },
      { kind: '+U', row: { customer: 'ann', total: 7.5, visits: 2 } },
    ]);
    expect(readJsonLines(join(out, 'raw.changelog.jsonl'))).toHaveLength(3);
    expect(existsSync(join(out, 'visits.dead-letter.jsonl'))).toBe(false);
    expect(r.err).toMatch(/source visits \(fileSource\): 3 records read, 0 dead-lettered/);
    expect(r.err).toMatch(/sink by_customer: 2 rows in the view, 4 changelog rows/);
    // The view read the GROUP BY's groups instead of keeping its own table, and the summary says so.
    expect(r.err).toMatch(/chained: spend → by_customer \(the view reads spend's groups\)/);
    expect(r.err).toMatch(/dead letters: 0/);
    expect(r.err).toMatch(/ran "spend per customer" in \d+\.\d\d s/);
  });

  it('reads params.path relative to the pipeline file', async () => {
    const dir = tempDir();
    writeLines(dir, 'visits.jsonl', goodLines);
    const file = writeJson(dir, 'p.json', salesPipeline('visits.jsonl'));
    const r = await runMain(['run', file, `--out=${join(dir, 'out')}`]);
    expect(r.code, r.err).toBe(0);
    expect(readJson(join(dir, 'out', 'by_customer.view.json'))).toHaveLength(2);
  });
});
