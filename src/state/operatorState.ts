import type { MapKey } from './descriptors.ts';
import { AppendLog } from './appendLog.ts';

export interface OperatorStateSnapshot {
  lists: Record<string, unknown[]>;
  broadcast: Record<string, [MapKey, unknown][]>;
  /**
   * Append logs as chunks (see AppendLog). Sealed chunks are handed over, not copied: a chunk
   * object that appears in two snapshots holds the same entries in both. Absent in older snapshots.
   */
  logs?: Record<string, unknown[][]>;
}

/**
 * Non-keyed state: operator list state (split across subtasks on rescale), broadcast map state
 * (the same on every subtask, so any one copy restores all) and append logs (whole chunks split
 * across subtasks on rescale, like list entries).
 */
export class OperatorStateStore {
  private readonly lists = new Map<string, unknown[]>();
  private readonly broadcasts = new Map<string, Map<MapKey, unknown>>();
  /** Restored in place: an operator may keep the log it got in create(). */
  private readonly logs = new Map<string, AppendLog<unknown>>();

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

  log<T>(name: string): AppendLog<T> {
    let l = this.logs.get(name);
    if (!l) this.logs.set(name, (l = new AppendLog<unknown>()));
    return l as AppendLog<T>;
  }

  isEmpty(): boolean {
    for (const l of this.lists.values()) if (l.length) return false;
    for (const l of this.logs.values()) if (l.size()) return false;
    for (const m of this.broadcasts.values()) if (m.size) return false;
    return true;
  }

  snapshot(): OperatorStateSnapshot {
    const lists: OperatorStateSnapshot['lists'] = {};
    const broadcast: OperatorStateSnapshot['broadcast'] = {};
    for (const [n, l] of this.lists) lists[n] = structuredClone(l);
    for (const [n, m] of this.broadcasts) broadcast[n] = structuredClone([...m]);
    if (this.logs.size === 0) return { lists, broadcast };
    const logs: NonNullable<OperatorStateSnapshot['logs']> = {};
    for (const [n, l] of this.logs) logs[n] = l.snapshot();
    return { lists, broadcast, logs };
  }

  /**
   * Lists are redistributed round-robin (Flink's even-split); broadcast state is taken
   * from the first snapshot, since every subtask held the same copy. A log's chunks go round-robin
   * too, whole and in order of the snapshots: the new subtasks together hold exactly the entries
   * the old ones held, each once.
   */
  restore(snapshots: readonly OperatorStateSnapshot[], subtask = 0, parallelism = 1): void {
    this.lists.clear();
    this.broadcasts.clear();
    for (const l of this.logs.values()) l.clear();
    const chunks = new Map<string, unknown[][]>();
    for (const s of snapshots) for (const [n, cs] of Object.entries(s.logs ?? {})) (chunks.get(n) ?? chunks.set(n, []).get(n)!).push(...cs);
    for (const [n, cs] of chunks) this.log(n).adopt(cs.filter((_, i) => i % parallelism === subtask));
    const allLists = new Map<string, unknown[]>();
    for (const s of snapshots) for (const [n, l] of Object.entries(s.lists)) allLists.set(n, [...(allLists.get(n) ?? []), ...structuredClone(l)]);
    for (const [n, l] of allLists) this.lists.set(n, l.filter((_, i) => i % parallelism === subtask));
    const first = snapshots[0];
    if (first) for (const [n, entries] of Object.entries(first.broadcast)) this.broadcasts.set(n, new Map(structuredClone(entries)));
  }
}
