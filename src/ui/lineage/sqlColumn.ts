import type { PipelineDocument } from '../../pipeline/document.ts';
import { nodeColumns } from '../../pipeline/lineage/columnLineage.ts';
import type { ColumnGraph, ColumnRef } from '../../pipeline/lineage/columnLineage.ts';

/**
 * The column a name in a SQL statement stands for: a column the statement's node makes, else one it reads
 * from the nodes feeding it (in `SUM(quantity) AS total_sold`, `total_sold` is made here, `quantity` read).
 */
export function columnInStatement(doc: PipelineDocument, graph: ColumnGraph, node: string | null, name: string): ColumnRef | null {
  const word = name.replace(/^`|`$/g, '');
  if (!node) return madeOnce(graph, word);
  const own = nodeColumns(graph, node).find((c) => c.column === word);
  if (own) return own;
  for (const e of doc.edges) {
    if (e.to.node !== node) continue;
    const up = nodeColumns(graph, e.from.node).find((c) => c.port === e.from.port && c.column === word);
    if (up) return up;
  }
  return madeOnce(graph, word);
}

/**
 * Outside any operator's statement (a view the script declares), a name is the column of the one operator
 * that makes it (copies do not count); a name made in several places is ambiguous, so none is chosen.
 */
function madeOnce(graph: ColumnGraph, word: string): ColumnRef | null {
  const made = [...graph.steps.values()].filter((s) => s.ref.column === word && s.derivation.how !== 'copy');
  return made.length === 1 ? made[0].ref : null;
}
