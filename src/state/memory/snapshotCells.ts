import type { MapKey, StateKind } from '../descriptors.ts';
import { cloneValue } from '../cloneValue.ts';

/** A list or map entry: the value and when it was written (for TTL per entry). */
export interface Entry<T> {
  v: T;
  t: number;
}

/** Snapshots store lists as [value, touched] pairs and maps as [key, value, touched] triples (not cloned here). */
export function toSnapshotValue(kind: StateKind | undefined, v: unknown): unknown {
  if (kind === 'list') return (v as Entry<unknown>[]).map((e) => [e.v, e.t]);
  if (kind === 'map') return [...(v as Map<MapKey, Entry<unknown>>)].map(([k, e]) => [k, e.v, e.t]);
  return v;
}

/** The inverse of `toSnapshotValue`; values are shared with `v` (the containers are new). */
export function fromSnapshotValue(kind: StateKind, v: unknown): unknown {
  if (kind === 'list') return (v as [unknown, number][]).map(([x, t]) => ({ v: x, t }));
  if (kind === 'map') return new Map((v as [MapKey, unknown, number][]).map(([k, x, t]) => [k, { v: x, t }]));
  return v;
}

/** Primitives are immutable, so only objects need a private copy. */
export function copyIfObject<T>(v: T): T {
  return typeof v === 'object' && v !== null ? cloneValue(v) : v;
}

/**
 * Gives list and map entries private copies of their values. The containers and entry records
 * are never shared with a snapshot (toSnapshotValue builds new ones); only the values are.
 */
export function ownEntryValues(entries: Entry<unknown>[] | Map<MapKey, Entry<unknown>>): void {
  for (const e of entries.values()) e.v = copyIfObject(e.v);
}
