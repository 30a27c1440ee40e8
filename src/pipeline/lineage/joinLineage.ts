import { renameRight } from '../kinds/joinColumns.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { fromView, windowedView } from './derive.ts';
import type { WindowShape } from './derive.ts';
import type { PortLineage } from './types.ts';

export interface JoinSides {
  leftKey?: string[];
  rightKey?: string[];
}

/**
 * Join output columns: every left column from the left side, every right column from the right side under
 * the name the join gives it (`id` becomes `id_right` when the left has an `id`), exactly as the runtime
 * names them. Key columns carry the condition that pairs the sides. A window join first adds the window
 * bounds to both sides.
 */
export function joinLineage(params: JoinSides, inputs: Record<string, StreamInfo[]>, out: StreamInfo | undefined, w?: WindowShape): PortLineage {
  const left = windowedView(w, inputs.left?.[0], 'left');
  const rightSide = windowedView(w, inputs.right?.[0], 'right');
  const names = renameRight(new Set(Object.keys(left)), Object.keys(rightSide));
  const view: PortLineage = { ...left };
  for (const [f, d] of Object.entries(rightSide)) view[names[f] ?? f] = d;
  const leftKey = params.leftKey ?? [];
  const rightKey = params.rightKey ?? [];
  leftKey.forEach((lk, i) => {
    const rk = rightKey[i];
    if (rk === undefined) return;
    const condition = `left.${lk} = right.${rk}`;
    if (view[lk]) view[lk] = { ...view[lk], role: 'joinKey', condition };
    const rn = names[rk] ?? rk;
    if (view[rn] && rightSide[rk]) view[rn] = { ...view[rn], role: 'joinKey', condition };
  });
  return fromView(out, view);
}
