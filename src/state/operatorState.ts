import type { MapKey } from './descriptors.ts';

export interface OperatorStateSnapshot {
  lists: Record<string, unknown[]>;
  broadcast: Record<string, [MapKey, unknown][]>;
}

/**
 * Non-keyed state: operator list state (split across subtasks on rescale) and
 * broadcast map state (the same on every subtask, so any one copy restores all).
 */
export class OperatorStateStore {
  private readonly lists = new Map<string, unknown[]>();
  private readonly broadcasts = new Map<string, Map<MapKey, unknown>>();

  list<T>(name: string): T[] {
    let l = this.lists.get(name);
    if (!l) this.lists.set(name, (l = []));
    return l as T[];
  }

  broadcast<V>(name: string): Map<MapKey, V> {
    let m = this.broadcasts.get(name);
    if (!m) this.broadcasts.set(name, (m = new Map()));
    return m as Map<MapKey, V>;
  }

  isEmpty(): boolean {
    for (const l of this.lists.values()) if (l.length) return false;
    for (const m of this.broadcasts.values()) if (m.size) return false;
    return true;
  }

  snapshot(): OperatorStateSnapshot {
    const lists: OperatorStateSnapshot['lists'] = {};
    const broadcast: OperatorStateSnapshot['broadcast'] = {};
    for (const [n, l] of this.lists) lists[n] = structuredClone(l);
    for (const [n, m] of this.broadcasts) broadcast[n] = structuredClone([...m]);
    return { lists, broadcast };
  }

  /**
   * Lists are redistributed round-robin (Flink's even-split); broadcast state is taken
   * from the first snapshot, since every subtask held the same copy.
   */
  restore(snapshots: readonly OperatorStateSnapshot[], subtask = 0, parallelism = 1): void {
    this.lists.clear();
    this.broadcasts.clear();
    const allLists = new Map<string, unknown[]>();
    for (const s of snapshots) for (const [n, l] of Object.entries(s.lists)) allLists.set(n, [...(allLists.get(n) ?? []), ...structuredClone(l)]);
    for (const [n, l] of allLists) this.lists.set(n, l.filter((_, i) => i % parallelism === subtask));
    const first = snapshots[0];
    if (first) for (const [n, entries] of Object.entries(first.broadcast)) this.broadcasts.set(n, new Map(structuredClone(entries)));
  }
}
