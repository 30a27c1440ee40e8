import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runMain, salesPipeline, tempDir, writeJson } from './cliTestKit.ts';

afterAll(removeTempDirs);

const withCode = () => {
  const p = salesPipeline('visits.jsonl');
  p.nodes.splice(1, 0, { id: 'big', kind: 'filter', params: { code: '(row) => row.amount > 3' } } as never);
  p.edges[0] = { from: { node: 'visits', port: 'out' }, to: { node: 'big', port: 'in' } };
  p.edges.push({ from: { node: 'big', port: 'out' }, to: { node: 'spend', port: 'in' } });
  return p;
};

describe('weir export', () => {
  it('prints the Flink SQL script on stdout and exits 0', async () => {
    const dir = tempDir();
    const r = await runMain(['export', writeJson(dir, 'p.json', salesPipeline()), '--to', 'flink-sql']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/CREATE TABLE `visits`[\s\S]*EXECUTE STATEMENT SET\nBEGIN[\s\S]*INSERT INTO `by_customer`[\s\S]*END;\n/);
    expect(r.err).toBe('');
  });

  it('writes --out, prints one warning line per node on stderr, and still exits 0', async () => {
    const dir = tempDir();
    const out = join(dir, 'job.sql');
    const r = await runMain(['export', writeJson(dir, 'p.json', withCode()), '--to=flink-sql', '--out', out, '--connector', 'by_customer=jdbc']);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    const warnings = r.err.split('\n').filter((l) => l.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: big: the filter code cannot run in Flink SQL/);
    expect(r.err).toMatch(/wrote .*job\.sql \(5 nodes, 1 warning\)/);
    const sql = readFileSync(out, 'utf8');
    expect(sql).toMatch(/CREATE TEMPORARY FUNCTION `big_fn`/);
    expect(sql).toMatch(/'connector' = 'jdbc'/);
  });

  it('exits 1 on an unknown target, a missing --to and an invalid pipeline', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', salesPipeline());
    const unknown = await runMain(['export', file, '--to', 'spark-sql']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown target "spark-sql"; targets: flink-sql/);
    const missing = await runMain(['export', file]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--to <target> is required[\s\S]*Usage: weir export/);
    const bad = salesPipeline();
    bad.nodes[1].params = { groupBy: ['nobody'], aggregates: [] } as never;
    const invalid = await runMain(['export', writeJson(dir, 'bad.json', bad), '--to', 'flink-sql']);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/bad\.json: spend/);
    const badConnector = await runMain(['export', file, '--to', 'flink-sql', '--connector', 'spend=print']);
    expect(badConnector.code).toBe(1);
    expect(badConnector.err).toMatch(/--connector spend: no source or sink/);
  });

  it('prints its usage for --help', async () => {
    const r = await runMain(['export', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: weir export <pipeline.json> --to flink-sql/);
  });
});
