import type { Element } from '../engine/types.ts';
import { keyGroupOf, keySelector, subtaskForKeyGroup } from '../engine/keys.ts';
import type { KeyFields } from '../engine/keys.ts';
import type { PlanEdge } from '../pipeline/plan.ts';

/** Splits a batch among the downstream subtasks of one edge, as Flink's partitioners do. */
export type Partitioner = (els: readonly Element[]) => Element[][];

/** How one edge's records move: its partitioning and, when hashed, what it hashes. */
export interface EdgeRouting {
  partitioning: PlanEdge['partitioning'];
  keyFields: KeyFields | null;
}

export function partitionerFor(edge: EdgeRouting, fromIndex: number, downstream: number, maxParallelism: number): Partitioner {
  if (downstream === 1) return (els) => [els as Element[]];
  switch (edge.partitioning) {
    case 'hash': {
      const key = keySelector(edge.keyFields ?? []);
      return (els) => {
        const out: Element[][] = Array.from({ length: downstream }, () => []);
        for (const e of els) out[subtaskForKeyGroup(keyGroupOf(key(e.row), maxParallelism), downstream, maxParallelism)].push(e);
        return out;
      };
    }
    case 'broadcast':
      return (els) => Array.from({ length: downstream }, () => els as Element[]);
    case 'forward':
      return (els) => Array.from({ length: downstream }, (_, i) => (i === fromIndex ? (els as Element[]) : []));
    default: {
      // Rebalance: round-robin, continuing where the previous batch stopped.
      let next = fromIndex % downstream;
      return (els) => {
        const out: Element[][] = Array.from({ length: downstream }, () => []);
        for (const e of els) {
          out[next].push(e);
          next = (next + 1) % downstream;
        }
        return out;
      };
    }
  }
}

/**
 * How records really move on an edge once parallelism is known: into a keyed operator they
 * are hashed by its key (as Flink's planner inserts a hash exchange), an updating stream keeps
 * each row's changes together by its unique key, and forward needs equal parallelism.
 */
export function effectivePartitioning(
  edge: PlanEdge,
  fromParallelism: number,
  toParallelism: number,
  targetKeyFields: KeyFields | null,
): EdgeRouting {
  if (edge.partitioning === 'broadcast') return { partitioning: 'broadcast', keyFields: null };
  const keyFields = targetKeyFields ?? (edge.info.changelog === 'update' ? edge.info.uniqueKey : null) ?? edge.keyFields;
  if (keyFields && toParallelism > 1) return { partitioning: 'hash', keyFields };
  if (fromParallelism === toParallelism) return { partitioning: 'forward', keyFields: null };
  return { partitioning: 'rebalance', keyFields: null };
}
