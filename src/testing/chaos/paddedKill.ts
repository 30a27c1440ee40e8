import type { LocalCluster } from '../../runtime/localCluster.ts';
import type { JoinBufferView } from '../../engine/operators/join.ts';
import type { Element } from '../../core/types.ts';

/** `side:key` of a NULL-padded join row, or null for a joined row (orders ⋈ payments on order_id). */
export function paddedSideKey(el: Element): string | null {
  if (el.row.payment_id === null && el.row.order_id !== null) return `left:${String(el.row.order_id)}`;
  if (el.row.customer_id === null && el.row.order_id_right !== null) return `right:${String(el.row.order_id_right)}`;
  return null;
}

/**
 * A join subtask holding a row that is padded and waiting: its NULL-padded row was committed
 * (published after a completed checkpoint), and its match has not arrived yet — `willMatch`
 * holds the join keys the plain run matched. Killing it now makes the retraction of a committed
 * padded row come after a restore.
 */
export function waitingPaddedSubtask(cluster: LocalCluster, joinNode: string, committedPadded: ReadonlySet<string>, willMatch: ReadonlySet<unknown>): string | null {
  for (const r of cluster.subtasksOf(joinNode)) {
    const buffers = (r.task?.operator.inspect?.() ?? []) as JoinBufferView[];
    for (const b of buffers) if (b.matches === 0 && willMatch.has(b.key) && committedPadded.has(`${b.side}:${String(b.key)}`)) return r.id;
  }
  return null;
}
