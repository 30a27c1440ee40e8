// Flink's mini-batch setting through the SQL front end: SET turns it on for every GROUP BY of the
// script, the export writes it back with the bounds Flink requires, and the round trip keeps it.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';

const TABLES = `CREATE TABLE bids (auction BIGINT, price BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/bids.jsonl', 'format' = 'json');
CREATE TABLE totals (auction BIGINT, n BIGINT, top BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json');
`;
const QUERY = 'INSERT INTO totals SELECT auction, COUNT(*), MAX(price) FROM bids GROUP BY auction;';

function planned(sql: string) {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r;
}
const groupBy = (doc: { nodes: { kind: string; params: Record<string, unknown> }[] }) => doc.nodes.find((n) => n.kind === 'aggregate')!;

describe('mini-batch GROUP BY in Flink SQL', () => {
  it('is on for the GROUP BYs of a script that SETs table.exec.mini-batch.enabled, and off otherwise', () => {
    const on = planned(`SET 'table.exec.mini-batch.enabled' = 'true';\nSET 'table.exec.mini-batch.allow-latency' = '2 s';\nSET 'table.exec.mini-batch.size' = '5000';\n${TABLES}${QUERY}`);
    expect(groupBy(on.doc).params.miniBatch).toBe(true);
    expect(on.warnings.map((w) => w.message).join('\n')).toMatch(/allow-latency': Weir folds each input batch/);
    expect(groupBy(planned(`${TABLES}${QUERY}`).doc).params.miniBatch).toBeUndefined();
    expect(groupBy(planned(`SET 'table.exec.mini-batch.enabled' = 'false';\n${TABLES}${QUERY}`).doc).params.miniBatch).toBeUndefined();
  });

  it('is written back with both bounds Flink requires, and reads back on', () => {
    const doc = planned(`SET 'table.exec.mini-batch.enabled' = 'true';\n${TABLES}${QUERY}`).doc;
    const out = exportFlinkSql(doc);
    expect(out.sql).toContain("SET 'table.exec.mini-batch.enabled' = 'true';");
    expect(out.sql).toMatch(/SET 'table.exec.mini-batch.allow-latency' = '[^']+';\nSET 'table.exec.mini-batch.size' = '\d+';/);
    expect(groupBy(planned(out.sql).doc).params.miniBatch).toBe(true);
    expect(exportFlinkSql(planned(`${TABLES}${QUERY}`).doc).sql).not.toContain('mini-batch');
  });
});
