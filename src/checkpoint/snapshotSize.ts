import type { SubtaskSnapshot } from './types.ts';
import type { SnapshotCell } from '../state/backend.ts';
import { approxSize } from '../state/size.ts';

/**
 * Keyed cells are spread over up to maxParallelism key groups, each usually holding fewer cells
 * than approxSize samples, so a plain walk visited every cell of every checkpoint (10–20 ms for
 * 2,500 join cells). Past this many cells they are estimated from an even sample across groups.
 */
export const SAMPLED_CELLS = 256;

/**
 * `approxSize(snap)`, with the keyed cells of an inline snapshot estimated from an even sample
 * when there are more than SAMPLED_CELLS of them. Up to that many it is exactly approxSize.
 * Deterministic, so a replayed run reports the sizes its first pass reported.
 */
export function approxSnapshotSize(snap: SubtaskSnapshot): number {
  const { keyed, ...rest } = snap;
  // approxSize of an object adds 16, then per field twice its name's length and its value's size.
  return approxSize(rest) + 2 * 'keyed'.length + keyedSize(keyed, 1);
}

function keyedSize(keyed: SubtaskSnapshot['keyed'], depth: number): number {
  if (keyed.type !== 'inline') return approxSize(keyed, depth);
  const { snapshot, ...handle } = keyed;
  const { keyGroups, ...meta } = snapshot;
  return approxSize(handle, depth) + 2 * 'snapshot'.length + approxSize(meta, depth + 1) + 2 * 'keyGroups'.length + keyGroupsSize(keyGroups, depth + 2);
}

/** approxSize(keyGroups, depth), the cells estimated from an even sample when there are many. */
function keyGroupsSize(keyGroups: Record<number, SnapshotCell[]>, depth: number): number {
  const groups: string[] = [];
  let cells = 0;
  for (const g in keyGroups) {
    groups.push(g);
    cells += keyGroups[g as unknown as number].length;
  }
  // Past depth 8 approxSize stops descending, and few cells are cheap to walk: no estimate needed.
  if (cells <= SAMPLED_CELLS || depth + 2 > 8) return approxSize(keyGroups, depth);
  // The group object, each group's name and array: exact. Cells sit two levels below the groups.
  let n = 16;
  for (const g of groups) n += 2 * g.length + 16;
  const step = cells / SAMPLED_CELLS;
  let sample = 0;
  let gi = 0;
  let start = 0;
  for (let i = 0; i < SAMPLED_CELLS; i++) {
    const at = Math.floor(i * step);
    while (at >= start + keyGroups[groups[gi] as unknown as number].length) start += keyGroups[groups[gi++] as unknown as number].length;
    sample += approxSize(keyGroups[groups[gi] as unknown as number][at - start], depth + 2);
  }
  return n + Math.round((sample / SAMPLED_CELLS) * cells);
}
