/** The query of an INSERT INTO a sink: all of one relation's columns, in the sink's order. */
import type { Query } from './query.ts';
import type { ImportContext } from './context.ts';
import { expectColumns, fail, singleTable } from './context.ts';

/** Returns the relation the sink reads. */
export function expectColumnsOf(cx: ImportContext, q: Query, sinkColumns: string[]): string {
  if (q.kind === 'union') fail(q.tok, 'INSERT INTO', 'put the UNION ALL in a view and insert from the view');
  const rel = singleTable(cx, q.from, 'INSERT INTO');
  if (q.where || q.groupBy) fail(q.where ?? q.groupBy![0], 'INSERT INTO', 'a sink takes a view as it is: filter or aggregate in a view of its own');
  expectColumns(q, sinkColumns, 'INSERT INTO');
  if (rel.columns.join() !== sinkColumns.join()) fail(q.tok, 'INSERT INTO', `\`${rel.name}\` has the columns (${rel.columns.join(', ')}), the sink (${sinkColumns.join(', ')})`);
  return rel.name;
}
