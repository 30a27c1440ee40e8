import { useRef, useSyncExternalStore } from 'react';
import type { EdgeObservation, NodeObservation, ObservationFrame } from '../../runtime/observe/types.ts';
import type { RunState } from '../run/runStore.ts';
import { runStore } from '../run/runStore.ts';

/** The latest observation frame, wherever the run store keeps it. */
export const currentFrame = (s: RunState): ObservationFrame | null => s.frame ?? s.snapshot?.frame ?? null;

// Indexed once per frame, so N edges looking themselves up cost N, not N².
const edgeIndex = new WeakMap<ObservationFrame, Map<string, EdgeObservation>>();
const nodeIndex = new WeakMap<ObservationFrame, Map<string, NodeObservation>>();

export function edgeObservation(frame: ObservationFrame | null, edge: string): EdgeObservation | undefined {
  if (!frame) return undefined;
  let m = edgeIndex.get(frame);
  if (!m) edgeIndex.set(frame, (m = new Map(frame.edges.map((e) => [e.edge, e]))));
  return m.get(edge);
}

export function nodeObservation(frame: ObservationFrame | null, node: string): NodeObservation | undefined {
  if (!frame) return undefined;
  let m = nodeIndex.get(frame);
  if (!m) nodeIndex.set(frame, (m = new Map(frame.nodes.map((n) => [n.node, n]))));
  return m.get(node);
}

/**
 * Subscribes to one slice of the current frame and re-renders only when `same` says it changed:
 * every frame brings fresh objects, and identity alone would re-render every edge 20 times a second.
 */
export function useFrameSlice<S>(select: (f: ObservationFrame | null) => S, same: (a: S, b: S) => boolean): S {
  const last = useRef<{ value: S } | null>(null);
  const read = (): S => {
    const next = select(currentFrame(runStore.get()));
    if (last.current && same(last.current.value, next)) return last.current.value;
    last.current = { value: next };
    return next;
  };
  return useSyncExternalStore(runStore.subscribe, read, read);
}

/** Equality by a signature string: cheap for the few numbers a badge shows. */
export const sameBy =
  <S>(signature: (s: S) => string) =>
  (a: S, b: S): boolean =>
    a === b || signature(a) === signature(b);
