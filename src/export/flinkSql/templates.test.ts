// Runnable connector templates per source and sink: kafka, filesystem and datagen, with marked
// placeholders, and a warning when datagen's random values meet a comparison with a literal.
import { describe, expect, it } from 'vitest';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { compile } from '../../pipeline/compile.ts';
import { exportFlinkSql } from './index.ts';
import type { FlinkSqlExportOptions } from './options.ts';
import { checkExportedSql } from './verify/semanticCheck.ts';

const T0 = 1_700_000_000_000;
const orders = (where: string): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'paid orders',
  nodes: [
    {
      id: 'orders',
      kind: 'inlineSource',
      params: {
        rows: [
          { id: 1, status: 'PAID', amount: 120, ts: T0 },
          { id: 2, status: 'NEW', amount: 80, ts: T0 + 1000 },
        ],
        schema: { id: 'integer', status: 'string', amount: 'number', ts: 'timestamp' },
        eventTime: { field: 'ts', maxOutOfOrdernessMs: 500 },
      },
    },
    { id: 'paid', kind: 'filter', params: { where } },
    { id: 'out', kind: 'logSink', params: {} },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'paid', port: 'in' } },
    { from: { node: 'paid', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
});

/** Exports, checks the script as the export's validator does, and returns the source table's statement. */
function exported(doc: PipelineDocument, options: FlinkSqlExportOptions) {
  const { sql, warnings } = exportFlinkSql(doc, options);
  const check = checkExportedSql(sql, compile(doc).plan!, warnings);
  expect(check.syntaxErrors).toEqual([]);
  expect(check.problems).toEqual([]);
  // The statement with the comments above it: from the blank line before it to its semicolon.
  const table = (name: string) => {
    const at = sql.indexOf(`CREATE TABLE \`${name}\``);
    // Long comments wrap over several `--` lines; read them as one.
    return sql.slice(sql.lastIndexOf('\n\n', at), sql.indexOf(';', at)).replace(/\n--\s+(?!@weir)/g, ' ');
  };
  return { sql, warnings, table };
}

const WHERE = "status = 'PAID' AND amount > 100";

describe('connector templates', () => {
  it('kafka: topic, bootstrap servers and format, with the placeholders marked', () => {
    const { table, warnings } = exported(orders(WHERE), { connectors: { orders: 'kafka', out: 'kafka' }, kafkaFormat: 'avro' });
    expect(table('orders')).toContain("'connector' = 'kafka'");
    expect(table('orders')).toContain("'topic' = '<your-topic-for-orders>'");
    expect(table('orders')).toContain("'properties.bootstrap.servers' = '<your-bootstrap-servers>'");
    expect(table('orders')).toContain("'properties.group.id' = '<your-consumer-group>'");
    expect(table('orders')).toContain("'format' = 'avro'");
    expect(table('out')).toContain("'topic' = '<your-topic-for-out>'");
    expect(table('out')).not.toContain('group.id');
    expect(warnings.filter((w) => /datagen/.test(w.message))).toEqual([]);
  });

  it('filesystem: a marked path and the format', () => {
    const { table } = exported(orders(WHERE), { connectors: { orders: 'filesystem', out: 'filesystem' } });
    expect(table('orders')).toContain("'connector' = 'filesystem'");
    expect(table('orders')).toContain("'path' = 'file:///<your-data-dir>/orders.jsonl'");
    expect(table('orders')).toContain("'format' = 'json'");
    expect(table('orders')).toContain('write them to this path as JSON Lines');
    expect(table('out')).toContain("'path' = 'file:///<your-data-dir>/out.jsonl'");
  });

  it('datagen: rows per second, the number of rows the source holds, and the field options to edit', () => {
    const { table } = exported(orders('id > amount'), { connectors: { orders: 'datagen' } });
    const t = table('orders');
    expect(t).toContain("'connector' = 'datagen'");
    expect(t).toMatch(/'rows-per-second' = '\d+'/);
    expect(t).toContain("'number-of-rows' = '2'");
    expect(t).toContain("'fields.ts.max-past' = '500 ms'");
    expect(t).toContain("datagen field options to edit: 'fields.id.min'/'max' or 'kind' = 'sequence' with 'start'/'end'; 'fields.status.length';");
    // Two columns compared with each other: random values can match, so no warning.
    expect(t).not.toContain('WARNING');
  });

  it('datagen warns, in the script and the warnings, of each comparison with a literal, and says what to do', () => {
    const { table, warnings } = exported(orders(WHERE), { connectors: { orders: 'datagen' } });
    const mine = warnings.filter((w) => w.nodeId === 'orders').map((w) => w.message);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatch(/^datagen's random `status` will likely match nothing in `paid`'s `status = 'PAID'`: a random STRING never equals a given value/);
    expect(mine[1]).toMatch(/^datagen's random `amount` will likely match nothing in `paid`'s `amount > 100`: bound it with 'fields.amount.min' = '<your-min>', 'fields.amount.max' = '<your-max>' \(values around 100\), or count through it with 'fields.amount.kind' = 'sequence'/);
    for (const m of mine) expect(table('orders')).toContain(`WARNING: ${m}`);
  });

  it('datagen finds comparisons behind other nodes, in BETWEEN and IN, either way round', () => {
    const doc = orders("100 <= amount OR id IN (1, 2) OR amount BETWEEN 5 AND 10");
    const { warnings } = exported(doc, { connectors: { orders: 'datagen' } });
    expect(warnings.filter((w) => w.nodeId === 'orders').map((w) => /`[^`]+`'s `([^`]+)`/.exec(w.message)![1])).toEqual(['100 <= amount', 'id IN (1, 2)', 'amount BETWEEN 5 AND 10']);
  });
});
