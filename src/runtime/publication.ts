import type { DeadLetter, Element } from '../core/types.ts';
import type { DeadLetterEpoch, PendingCommit } from '../checkpoint/types.ts';

/**
 * Exactly-once publication of committed sink epochs and dead-letter epochs: each `origin@epoch`
 * goes out once, however often restores re-publish it. `published` may start with the keys an
 * earlier process already wrote (resume).
 */
export class Publication {
  private readonly published: Set<string>;
  readonly changelogs = new Map<string, Element[]>();
  readonly deadLetters: DeadLetter[] = [];

  constructor(
    sinkIds: readonly string[],
    published: Iterable<string>,
    private readonly keepChangelog: boolean,
    private readonly onPublish?: (sinkId: string, commit: PendingCommit) => void,
    private readonly onDeadLetters?: (epoch: DeadLetterEpoch) => void,
  ) {
    this.published = new Set(published);
    for (const id of sinkIds) this.changelogs.set(id, []);
  }

  private first(key: string): boolean {
    if (this.published.has(key)) return false;
    this.published.add(key);
    return true;
  }

  commits(sinkId: string, commits: readonly PendingCommit[]): void {
    for (const c of commits) {
      if (!this.first(`${c.origin}@${c.epoch}`)) continue;
      const log = this.keepChangelog ? this.changelogs.get(sinkId) : undefined;
      if (log) for (const el of c.els) log.push(el);
      this.onPublish?.(sinkId, c);
    }
  }

  /** Output of a run nothing can roll back: published as it comes, with no epoch to deduplicate. */
  final(sinkId: string, els: readonly Element[]): void {
    const log = this.keepChangelog ? this.changelogs.get(sinkId) : undefined;
    if (log) for (const el of els) log.push(el);
    this.onPublish?.(sinkId, { origin: sinkId, epoch: Infinity, els: els as Element[] });
  }

  /** Time travel: epochs after `checkpointId` will be produced again (with the same ids) and may publish again. */
  forgetAfter(checkpointId: number): void {
    for (const key of [...this.published]) if (Number(key.slice(key.lastIndexOf('@') + 1)) > checkpointId) this.published.delete(key);
  }

  deadLetterEpochs(epochs: readonly DeadLetterEpoch[]): void {
    for (const e of epochs) {
      if (!this.first(`dead-letters:${e.origin}@${e.epoch}`)) continue;
      for (const d of e.items) this.deadLetters.push(d);
      this.onDeadLetters?.(e);
    }
  }
}
