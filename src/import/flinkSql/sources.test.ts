// Source tables whose records are changes (debezium-json, canal-json, maxwell-json, changelog-json, upsert-kafka) become
// changelog sources, and CSV files stay CSV, both ways.
import { describe, expect, it } from 'vitest';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { importFlinkSql } from './index.ts';

const table = (cols: string, options: string) => `CREATE TABLE customers (${cols}) WITH (${options});
CREATE TABLE tiers (tier STRING, n BIGINT, PRIMARY KEY (tier) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json');
INSERT INTO tiers SELECT tier, COUNT(*) AS n FROM customers GROUP BY tier;`;

function imported(sql: string): PipelineDocument {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}
const source = (doc: PipelineDocument) => doc.nodes.find((n) => n.id === 'customers')!;

function roundTrips(doc: PipelineDocument): string {
  const once = exportFlinkSql(doc).sql;
  const back = imported(once);
  expect(source(back).params).toEqual(source(doc).params);
  expect(exportFlinkSql(back).sql).toBe(once);
  return once;
}

describe('changelog and CSV source tables', () => {
  it('reads debezium-json with a primary key as a changelog source, and writes it back', () => {
    const doc = imported(table("customer_id STRING, tier STRING, PRIMARY KEY (customer_id) NOT ENFORCED", "'connector' = 'filesystem', 'path' = 'file:///data/customers.cdc.jsonl', 'format' = 'debezium-json'"));
    expect(source(doc)).toMatchObject({ kind: 'fileSource', params: { path: '/data/customers.cdc.jsonl', changelog: { format: 'debezium-json', primaryKey: ['customer_id'] } } });
    expect(roundTrips(doc)).toContain("'format' = 'debezium-json'");
  });

  it("reads WATERMARK FOR ts AS SOURCE_WATERMARK() as no delay, and says why", () => {
    const r = importFlinkSql(table("customer_id STRING, tier STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS SOURCE_WATERMARK()", "'connector' = 'kafka', 'topic' = 'c', 'properties.bootstrap.servers' = 'k:9092', 'format' = 'json'"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(source(r.doc).params.eventTime).toMatchObject({ field: 'ts', maxOutOfOrdernessMs: 0 });
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/SOURCE_WATERMARK\(\).*no delay/);
  });

  it('reads canal-json and maxwell-json from Kafka or files as changelog sources, and writes them back', () => {
    for (const format of ['canal-json', 'maxwell-json']) {
      const doc = imported(table('customer_id STRING, tier STRING', `'connector' = 'filesystem', 'path' = 'file:///data/customers.cdc.jsonl', 'format' = '${format}'`));
      expect(source(doc).params).toMatchObject({ changelog: { format } });
      expect(roundTrips(doc)).toContain(`'format' = '${format}'`);
    }
    const refused = importFlinkSql(table('customer_id STRING, tier STRING', "'connector' = 'filesystem', 'path' = '/c.jsonl', 'format' = 'ogg-json'"));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors[0].message).toMatch(/'canal-json', 'maxwell-json'/);
  });

  it('takes a PRIMARY KEY written before the WATERMARK or a column, as Flink does, and keeps positions after it', () => {
    const cols = 'customer_id STRING,\n  PRIMARY KEY (`customer_id`) NOT ENFORCED,\n  tier STRING, ts TIMESTAMP(3),\n  WATERMARK FOR ts AS ts - INTERVAL \'1\' SECOND';
    const doc = imported(table(cols, "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(source(doc).params).toMatchObject({ changelog: { format: 'upsert', primaryKey: ['customer_id'] }, eventTime: { field: 'ts' } });
    expect(roundTrips(doc)).toContain('PRIMARY KEY (`customer_id`) NOT ENFORCED');
    const named = imported(table('CONSTRAINT pk PRIMARY KEY (customer_id) NOT ENFORCED, customer_id STRING, tier STRING', "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(source(named).params.changelog).toMatchObject({ primaryKey: ['customer_id'] });
    // An error after the lifted key still points at its own line and column.
    const bad = importFlinkSql(table('customer_id STRING,\n  PRIMARY KEY (customer_id) NOT ENFORCED,\n  ts TIMESTAMP(3),\n  WATERMARK FOR nope AS ts', "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatchObject({ line: 4, message: expect.stringMatching(/nope/) });
    const twice = importFlinkSql(table('customer_id STRING, PRIMARY KEY (customer_id) NOT ENFORCED, tier STRING, PRIMARY KEY (tier) NOT ENFORCED', "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.errors[0].message).toMatch(/declares a primary key twice/);
  });

  it("CREATE TABLE … LIKE base merges as Flink does: base's columns first, its watermark and key, options overwritten", () => {
    const base = "CREATE TABLE clicks (user_id STRING, url STRING, ts TIMESTAMP(3), PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '/clicks.jsonl', 'format' = 'json');\n";
    const q = 'INSERT INTO out_t SELECT user_id, COUNT(*) AS n FROM copy GROUP BY user_id;';
    const sink = "CREATE TABLE out_t (user_id STRING, n BIGINT) WITH ('connector' = 'print');\n";
    const doc = imported(`${base}CREATE TABLE copy (\n  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND\n) WITH ('path' = '/other.jsonl')\nLIKE clicks;\n${sink}${q}`);
    const copy = doc.nodes.find((n) => n.id === 'copy')!;
    expect(copy.params).toMatchObject({ path: '/other.jsonl', schema: { user_id: 'string', url: 'string', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 4999 } });
    const extra = imported(`${base}CREATE TABLE copy (score INT) WITH ('path' = '/other.jsonl') LIKE clicks;\n${sink}${q}`);
    expect(Object.keys(extra.nodes.find((n) => n.id === 'copy')!.params.schema as object)).toEqual(['user_id', 'url', 'ts', 'score']);
    const refused = (ddl: string) => {
      const r = importFlinkSql(`${base}${ddl}\n${sink}${q}`);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.errors[0].message;
    };
    expect(refused("CREATE TABLE copy (url STRING) WITH ('path' = '/o.jsonl') LIKE clicks;")).toMatch(/declares `url`, which `clicks` has too/);
    expect(refused("CREATE TABLE copy (score INT) WITH ('path' = '/o.jsonl') LIKE nowhere;")).toMatch(/`nowhere` is not a table created before/);
    expect(refused("CREATE TABLE copy (score INT) WITH ('path' = '/o.jsonl') LIKE clicks (EXCLUDING OPTIONS);")).toMatch(/has no 'connector' option/);
    expect(refused("CREATE TABLE copy (score INT) WITH ('path' = '/o.jsonl') LIKE clicks (INCLUDING OPTIONS);")).toMatch(/both tables set 'path'/);
  });

  it('reads changelog-json without a key', () => {
    const doc = imported(table('customer_id STRING, tier STRING', "'connector' = 'filesystem', 'path' = '/data/c.jsonl', 'format' = 'changelog-json'"));
    expect(source(doc).params.changelog).toEqual({ format: 'changelog-json' });
    expect(roundTrips(doc)).toContain("'format' = 'changelog-json'");
  });

  it('reads upsert-kafka by its primary key, and refuses one without a key', () => {
    const doc = imported(table("customer_id STRING, tier STRING, PRIMARY KEY (customer_id) NOT ENFORCED", "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(source(doc).params.changelog).toEqual({ format: 'upsert', primaryKey: ['customer_id'] });
    expect(roundTrips(doc)).toContain("'connector' = 'upsert-kafka'");
    const bad = importFlinkSql(table('customer_id STRING, tier STRING', "'connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json'"));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatchObject({ line: 1, construct: 'upsert-kafka' });
  });

  it("keeps a CSV file CSV: 'format' = 'csv' both ways", () => {
    const doc = imported(table('customer_id STRING, tier STRING', "'connector' = 'filesystem', 'path' = '/data/customers.csv', 'format' = 'csv'"));
    expect(source(doc).params).toMatchObject({ path: '/data/customers.csv', format: 'csv' });
    expect(roundTrips(doc)).toContain("'format' = 'csv'");
    const byExtension = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'customers' ? { ...n, params: { path: 'customers.csv', schema: n.params.schema } } : n)) };
    expect(exportFlinkSql(byExtension).sql).toContain("'format' = 'csv'");
  });
});
