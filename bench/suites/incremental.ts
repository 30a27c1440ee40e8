import type { SqlJsStatic } from 'sql.js';
import type { LocalCluster } from '../../src/runtime/localCluster.ts';
import { inProcessCluster } from '../../src/runtime/runInProcess.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';
import { retailTransactions } from '../../src/generators/retailTransactions.ts';
import { scenarioReader } from '../../src/generators/reader.ts';
import type { Row } from '../../src/core/types.ts';
import type { SourceReader } from '../../src/core/source.ts';
import salesByStore from '../../public/examples/sales-by-store.json';
import { median, now, type RunPlan } from '../lib/stats.ts';

const STORES = 8;

function salesRows(count: number): Row[] {
  const r = scenarioReader(retailTransactions, { seed: 42, count, keys: STORES, startTime: 1_700_000_000_000, intervalMs: 20, disorderMs: 500 });
  const rows: Row[] = [];
  while (!r.done()) for (const x of r.read(4096)) rows.push(x.value as Row);
  return rows;
}

/** Serves rows up to a movable limit, so a loaded view can then be timed on a few more updates. */
function gatedReader(rows: readonly Row[]) {
  let pos = 0;
  let limit = 0;
  const reader: SourceReader = {
    read(max) {
      const end = Math.min(limit, pos + max);
      const out = [];
      while (pos < end) out.push({ value: rows[pos++] });
      return out;
    },
    done: () => pos >= rows.length,
    offset: () => pos,
    seek(o) {
      pos = o;
    },
  };
  return { reader, open: (n: number) => (limit = Math.min(rows.length, n)) };
}

/** Opens the gate up to `until` rows and runs until the source waits at it (everything in flight processed). */
function feed(cluster: LocalCluster, gate: ReturnType<typeof gatedReader>, until: number): void {
  gate.open(until);
  cluster.runUntilIdle();
}

/** Weir's cost per update of the maintained sales_by_store view once it holds `base` rows. */
export function weirUsPerUpdate(rows: readonly Row[], base: number): number {
  const gate = gatedReader(rows);
  const cluster = inProcessCluster(planOrThrow(salesByStore), { keepChangelog: false, readers: { transactions: gate.reader } });
  cluster.runSync();
  feed(cluster, gate, base);
  const updates = rows.length - base;
  const t0 = now();
  feed(cluster, gate, rows.length);
  return ((now() - t0) * 1000) / updates;
}

const RECOMPUTE = `SELECT store_id, COUNT(*) AS transactions, SUM(amount) AS revenue, AVG(amount) AS avg_ticket,
  COUNT(DISTINCT product) AS products FROM sales GROUP BY store_id ORDER BY store_id`;

/** incrementalVsRecompute.*: the same GROUP BY maintained by Weir vs recomputed by sql.js over every row. */
export async function incrementalSuite(SQL: SqlJsStatic, base: number, updates: number, plan: RunPlan): Promise<Record<string, number>> {
  const rows = salesRows(base + updates);
  const db = new SQL.Database();
  db.run('CREATE TABLE sales (tx_id TEXT, store_id TEXT, product TEXT, quantity INTEGER, amount REAL, ts INTEGER)');
  db.run('BEGIN');
  const ins = db.prepare('INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?)');
  for (let i = 0; i < base; i++) {
    const r = rows[i];
    ins.run([r.tx_id as string, r.store_id as string, r.product as string, r.quantity as number, r.amount as number, r.ts as number]);
  }
  ins.free();
  db.run('COMMIT');
  const weir: number[] = [];
  const sql: number[] = [];
  for (let round = 0; round < plan.warmups + plan.runs; round++) {
    const w = weirUsPerUpdate(rows, base);
    const t0 = now();
    db.exec(RECOMPUTE);
    const s = (now() - t0) * 1000;
    if (round >= plan.warmups) {
      weir.push(w);
      sql.push(s);
    }
  }
  db.close();
  const ratios = weir.map((w, i) => sql[i] / w);
  return {
    'incrementalVsRecompute.weirUsPerUpdate': median(weir),
    'incrementalVsRecompute.recomputeMs': median(sql) / 1000,
    'incrementalVsRecompute.ratio': median(ratios),
  };
}
