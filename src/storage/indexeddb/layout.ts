import type { Key } from '../../core/types.ts';
import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { chunkId } from './chunks.ts';

/**
 * Which chunks the state consists of right now, per key group (oldest first), and where each
 * persisted key's latest version lives. Persists append; compaction replaces a prefix of a
 * key group's list, so a persist that raced with it is kept on top.
 */
export class ChunkLayout {
  private readonly byKg = new Map<number, ChunkRef[]>();
  /** Chunks whose write transaction has not completed: their keys must not be evicted yet. */
  readonly pending = new Set<string>();
  /** Chunks this backend may delete once no retained checkpoint and no layout refers to them. */
  readonly known = new Set<string>();
  /** Key → the chunk holding its latest persisted version (or its tombstone, until confirmed). */
  readonly loc = new Map<Key, string>();
  private serial = 0;

  constructor(private readonly subtask: string) {}

  nextId(): string {
    return chunkId(this.subtask, this.serial++);
  }

  /** Never reuse a serial that exists on disk: an older retained checkpoint may still refer to it. */
  raiseSerial(floor: number): void {
    if (floor > this.serial) this.serial = floor;
  }

  append(refs: readonly ChunkRef[]): void {
    for (const r of refs) {
      let list = this.byKg.get(r.keyGroup);
      if (!list) this.byKg.set(r.keyGroup, (list = []));
      list.push(r);
      this.known.add(r.id);
    }
  }

  setGroup(kg: number, refs: ChunkRef[]): void {
    if (refs.length) this.byKg.set(kg, [...refs]);
    else this.byKg.delete(kg);
    for (const r of refs) this.known.add(r.id);
  }

  remove(ids: ReadonlySet<string>): void {
    for (const [kg, list] of this.byKg) {
      const kept = list.filter((r) => !ids.has(r.id));
      if (kept.length === list.length) continue;
      if (kept.length) this.byKg.set(kg, kept);
      else this.byKg.delete(kg);
    }
  }

  /** Swaps `oldIds` (which must still be the group's oldest chunks) for `fresh`; false if the group moved on. */
  replacePrefix(kg: number, oldIds: readonly string[], fresh: readonly ChunkRef[]): boolean {
    const list = this.byKg.get(kg) ?? [];
    if (list.length < oldIds.length || oldIds.some((id, i) => list[i].id !== id)) return false;
    this.setGroup(kg, [...fresh, ...list.slice(oldIds.length)]);
    return true;
  }

  group(kg: number): readonly ChunkRef[] {
    return this.byKg.get(kg) ?? [];
  }

  /** The oldest chunks of a group whose writes completed (compaction input). */
  confirmedPrefix(kg: number): ChunkRef[] {
    const list = this.byKg.get(kg) ?? [];
    const end = list.findIndex((r) => this.pending.has(r.id));
    return list.slice(0, end < 0 ? list.length : end);
  }

  keyGroups(): number[] {
    return [...this.byKg.keys()].sort((a, b) => a - b);
  }

  all(): ChunkRef[] {
    const out: ChunkRef[] = [];
    for (const kg of this.keyGroups()) out.push(...this.byKg.get(kg)!);
    return out;
  }

  ids(): Set<string> {
    const out = new Set<string>();
    for (const list of this.byKg.values()) for (const r of list) out.add(r.id);
    return out;
  }

  handle(store: string): KeyedStateHandle {
    return { type: 'chunks', store, chunks: this.all() };
  }

  bytes(): number {
    let n = 0;
    for (const list of this.byKg.values()) for (const r of list) n += r.bytes;
    return n;
  }

  chunkCount(): number {
    let n = 0;
    for (const list of this.byKg.values()) n += list.length;
    return n;
  }

  clear(): void {
    this.byKg.clear();
    this.pending.clear();
    this.loc.clear();
  }
}
