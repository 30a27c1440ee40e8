import type { SqlAnalysis } from './sqlAnalysis.ts';

let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, (a: SqlAnalysis) => void>();

/** Plans a script in the SQL worker; answers come back in order of the requests that made them. */
export function checkSql(sql: string): Promise<SqlAnalysis> {
  if (!worker) {
    worker = new Worker(new URL('./sqlCheckWorker.ts', import.meta.url), { type: 'module', name: 'weir-sql-check' });
    worker.onmessage = (e: MessageEvent<SqlAnalysis & { id: number }>) => {
      waiting.get(e.data.id)?.(e.data);
      waiting.delete(e.data.id);
    };
  }
  const id = ++next;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker!.postMessage({ id, sql });
  });
}
