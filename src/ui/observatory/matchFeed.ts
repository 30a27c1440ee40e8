import type { JoinObservation } from '../../runtime/observe/types.ts';
import type { Row } from '../../core/types.ts';

export type MatchItem = JoinObservation['recentMatches'][number] & { id: number };

/**
 * Recent join outputs across frames: each frame only brings what happened since the previous
 * one, so the panel keeps the last few with stable ids (a new id starts the flow animation once).
 */
export class MatchFeed {
  private items: MatchItem[] = [];
  private next = 1;
  private lastFrame: JoinObservation | null = null;
  constructor(private readonly cap = 8) {}

  accept(join: JoinObservation): MatchItem[] {
    if (join === this.lastFrame) return this.items;
    this.lastFrame = join;
    if (join.recentMatches.length === 0) return this.items;
    const fresh = join.recentMatches.slice(-this.cap).map((m) => ({ ...m, id: this.next++ }));
    this.items = [...this.items, ...fresh].slice(-this.cap);
    return this.items;
  }
}

/**
 * Outer joins pad the missing side with NULLs; such an output is a "padded" row. The frame names
 * only the row that arrived (the other side is null when one input triggered the output), so the
 * output row itself decides: it is padded when it does not carry the arriving row (the retraction
 * of a row padded on that side), or when everything in it beyond the arriving row is NULL.
 */
export function isPadded(m: { left: Row | null; right: Row | null; out: Row }): boolean {
  if (m.left && m.right) return false;
  const arrived = m.left ?? m.right;
  if (!arrived) return false;
  const outValues = Object.values(m.out);
  const mine = Object.values(arrived).filter((v) => v !== null && v !== undefined);
  const carried = mine.every((v) => outValues.includes(v));
  if (!carried) return true;
  const rest = [...outValues];
  for (const v of mine) rest.splice(rest.indexOf(v), 1);
  return rest.length > 0 && rest.every((v) => v === null || v === undefined);
}

const feeds = new Map<string, MatchFeed>();

/** One feed per join node for the page's life, so switching tabs keeps the pairs already seen. */
export function feedFor(node: string): MatchFeed {
  let f = feeds.get(node);
  if (!f) feeds.set(node, (f = new MatchFeed()));
  return f;
}
