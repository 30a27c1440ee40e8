/** How far one sink's committed view is behind what the sink has taken in. */
export interface SinkCommit {
  /** The checkpoint whose completion committed the rows shown (or that a restore went back to); null: none yet. */
  checkpoint: number | null;
  /** Changes the sink has taken in since: they are committed with the next checkpoint that completes. */
  pending: number;
  /** The input ended: every change is committed, with no checkpoint needed. */
  final: boolean;
}

/**
 * Follows, per sink, the records its subtasks had taken in when they took each checkpoint's
 * snapshot. A sink's view shows only what completed checkpoints committed, so while the job is
 * paused between two checkpoints the node can say "in 9" while the table has 7 rows: this tells
 * the two apart without a second count of anything.
 */
export class SinkCommits {
  /** checkpoint → subtask → records in at its snapshot. */
  private readonly atSnapshot = new Map<number, Map<string, { node: string; recordsIn: number }>>();
  private committedIn = new Map<string, number>();
  private checkpoint: number | null = null;
  private final = false;

  /** A sink subtask took checkpoint `id`'s snapshot having taken in `recordsIn` records. */
  snapshot(id: number, subtask: string, node: string, recordsIn: number): void {
    let taken = this.atSnapshot.get(id);
    if (!taken) this.atSnapshot.set(id, (taken = new Map()));
    taken.set(subtask, { node, recordsIn });
  }

  /** Checkpoint `id` completed: the sinks' epochs up to its snapshots are committed. */
  completed(id: number): void {
    const taken = this.atSnapshot.get(id);
    if (taken) {
      const byNode = new Map<string, number>();
      for (const { node, recordsIn } of taken.values()) byNode.set(node, (byNode.get(node) ?? 0) + recordsIn);
      for (const [node, n] of byNode) this.committedIn.set(node, n);
    }
    this.checkpoint = id;
    for (const k of this.atSnapshot.keys()) if (k <= id) this.atSnapshot.delete(k);
  }

  /** The job went back to checkpoint `id` (null: the start); `recordsIn` is each sink's restored count. */
  restored(id: number | null, recordsIn: Record<string, number>): void {
    this.atSnapshot.clear();
    this.committedIn = new Map(Object.entries(recordsIn));
    this.checkpoint = id;
    this.final = false;
  }

  /** The input ended and the last epochs were committed. */
  finished(): void {
    this.final = true;
  }

  reset(): void {
    this.restored(null, {});
  }

  /** Where sink `node` stands, given the records it has taken in so far. */
  of(node: string, recordsIn: number): SinkCommit {
    if (this.final) return { checkpoint: this.checkpoint, pending: 0, final: true };
    return { checkpoint: this.checkpoint, pending: Math.max(0, recordsIn - (this.committedIn.get(node) ?? 0)), final: false };
  }
}
