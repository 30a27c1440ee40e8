// A versioned table read from an upsert source, through the whole SQL path: import, plan, run.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';

describe('temporalJoin over an upsert table read from SQL', () => {
  it('keeps a version until the next one starts when the upsert source retracts it with its own time', () => {
    const sql = `CREATE TABLE orders (id BIGINT, cur STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '/orders.jsonl', 'format' = 'json');
CREATE TABLE rates (cur STRING, rate DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts, PRIMARY KEY (cur) NOT ENFORCED)
WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
SELECT o.id, o.amount * r.rate AS converted FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur;`;
    const r = importFlinkSql(sql);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const bytes = (lines: object[]) => {
      const all = new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n'));
      return { size: all.length, read: (s: number, e: number) => all.subarray(s, Math.min(e, all.length)) };
    };
    const t = (h: number) => `2024-01-01 ${String(h).padStart(2, '0')}:00:00.000`;
    const run = runPipeline(r.doc, {
      inputs: {
        orders: { name: 'orders.jsonl', bytes: bytes([{ id: 1, cur: 'EUR', amount: 10, ts: t(2) }, { id: 2, cur: 'EUR', amount: 10, ts: t(6) }]) },
        rates: { name: 'rates.jsonl', bytes: bytes([{ cur: 'EUR', rate: 1.5, ts: t(1) }, { cur: 'EUR', rate: 2, ts: t(5) }]) },
      },
    });
    const sink = Object.keys(run.changelogs)[0];
    expect(run.changelogs[sink].map((e) => `${e.row.id}:${e.row.converted}`)).toEqual(['1:15', '2:20']);
  });
});
