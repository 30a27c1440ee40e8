import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runMain, salesPipeline, tempDir, writeJson } from './cliTestKit.ts';

afterAll(removeTempDirs);

describe('weir import', () => {
  it('turns an exported script back into the same pipeline', async () => {
    const dir = tempDir();
    const sql = join(dir, 'job.sql');
    expect((await runMain(['export', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--to', 'flink-sql', '--out', sql])).code).toBe(0);
    const out = join(dir, 'back.json');
    const r = await runMain(['import', '--from', 'flink-sql', sql, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/wrote .*back\.json \(4 nodes, 3 edges\)/);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.nodes.map((n: { id: string; kind: string }) => `${n.id}:${n.kind}`)).toEqual(['visits:fileSource', 'spend:aggregate', 'raw:logSink', 'by_customer:viewSink']);
    expect((await runMain(['validate', out])).code).toBe(0);
    const printed = await runMain(['import', '--from=flink-sql', sql]);
    expect(JSON.parse(printed.out)).toEqual(doc);
  });

  it('reports SQL outside the subset as file:line:column: construct: problem and exits 1', async () => {
    const dir = tempDir();
    const sql = join(dir, 'bad.sql');
    writeFileSync(sql, "CREATE TABLE `t` (`a` STRING) WITH ('connector' = 'datagen');\nCREATE TEMPORARY VIEW `v` AS SELECT `a` FROM `t` ORDER BY `a`;\n");
    const r = await runMain(['import', '--from', 'flink-sql', sql]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${sql}:2:50: ORDER BY: ORDER BY on a stream is not supported`);
    expect(r.out).toBe('');
  });

  it('exits 1 on an unknown language or missing arguments', async () => {
    expect((await runMain(['import', '--from', 'hive-sql', 'x.sql'])).err).toMatch(/unknown language "hive-sql"/);
    const missing = await runMain(['import', 'x.sql']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--from <language> is required[\s\S]*Usage: weir import/);
    expect((await runMain(['import', '--from', 'flink-sql', '/nonexistent/x.sql'])).err).toMatch(/cannot read the script: no such file/);
  });
});
