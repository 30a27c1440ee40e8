// Plans the SQL tab's text off the main thread: the first plan warms the grammar (about half a
// second), and a large script takes tens of milliseconds, too long to run on every keystroke.
import { analyseSql } from './sqlAnalysis.ts';

self.onmessage = (e: MessageEvent<{ id: number; sql: string }>) => {
  let result;
  try {
    result = { id: e.data.id, ...analyseSql(e.data.sql) };
  } catch (err) {
    result = { id: e.data.id, problems: [{ line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', construct: 'planner', message: String((err as Error)?.message ?? err) }], text: e.data.sql, spans: {}, catalog: [], ms: 0 };
  }
  (self as unknown as Worker).postMessage(result);
};
