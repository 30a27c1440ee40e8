import type { SqlAnalysis } from './sqlAnalysis.ts';

let worker: Worker | null = null;
let next = 0;
let busy = false;
/** The newest text waiting for the worker; a newer one replaces it, so the worker never plans a stale text. */
let queued: { sql: string; resolve: (a: SqlAnalysis | null) => void } | null = null;
const waiting = new Map<number, (a: SqlAnalysis) => void>();

function send(sql: string, resolve: (a: SqlAnalysis | null) => void): void {
  if (!worker) {
    worker = new Worker(new URL('./sqlCheckWorker.ts', import.meta.url), { type: 'module', name: 'weir-sql-check' });
    worker.onmessage = (e: MessageEvent<SqlAnalysis & { id: number }>) => {
      waiting.get(e.data.id)?.(e.data);
      waiting.delete(e.data.id);
      busy = false;
      const q = queued;
      queued = null;
      if (q) send(q.sql, q.resolve);
    };
  }
  busy = true;
  const id = ++next;
  waiting.set(id, resolve);
  worker.postMessage({ id, sql });
}

/**
 * Plans a script in the SQL worker. One text is planned at a time; while it is, only the newest
 * request waits, and the ones it replaced resolve to null (typing faster than the planner never
 * builds a queue, so the underline follows the last keystroke).
 */
export function checkSql(sql: string): Promise<SqlAnalysis | null> {
  return new Promise((resolve) => {
    if (!busy) return send(sql, resolve);
    queued?.resolve(null);
    queued = { sql, resolve };
  });
}
