import type { ObserveRequest } from '../../runtime/observe/types.ts';
import { DEFAULT_REQUEST } from '../../runtime/observe/types.ts';
import { createStore } from '../store/createStore.ts';
import { sendObserve } from './controls.ts';

/** What the observatory panels ask the engine for; the worker samples only this. */
export const observeStore = createStore<ObserveRequest>({ ...DEFAULT_REQUEST });

let scheduled = false;

/** Changes the request and tells the engine once per animation frame at most (typing stays cheap). */
export function setObserve(patch: Partial<ObserveRequest>): void {
  observeStore.set((r) => ({ ...r, ...patch }));
  if (scheduled) return;
  scheduled = true;
  const flush = () => {
    scheduled = false;
    sendObserve(observeStore.get());
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else flush();
}

/** Pins or unpins a key (its JSON text); pinned keys are listed first. */
export function togglePin(keyText: string): void {
  const pinned = observeStore.get().pinned;
  setObserve({ pinned: pinned.includes(keyText) ? pinned.filter((k) => k !== keyText) : [...pinned, keyText] });
}

/** Cycles a column's sort: ascending, descending, none. */
export function toggleSort(column: string): void {
  const cur = observeStore.get().sort;
  const sort = cur?.column !== column ? { column, dir: 'asc' as const } : cur.dir === 'asc' ? { column, dir: 'desc' as const } : null;
  setObserve({ sort, stateOffset: 0 });
}
