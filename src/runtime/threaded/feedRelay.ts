import type { SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { FeedBacklog } from '../../engine/feedLog.ts';
import type { LiveFeeds } from '../feeds/liveFeeds.ts';
import type { SplitSourceSnapshot } from '../sourceSplit.ts';

/** Sends a feed's new entries to the worker of the current deployment that runs its source. */
export type FeedSend = (node: string, entries: (string | number)[], ended: boolean) => void;

const nodeOf = (subtask: string): string => subtask.slice(0, subtask.lastIndexOf('#'));

/**
 * Live feeds on worker threads. The connections and the replay logs stay on the job manager's
 * thread, which outlives every attempt; the worker running a feed's source reads a mirror of the
 * log, filled with the log's backlog when it is deployed and with each new message after that.
 * A restart deploys new mirrors from the same log, so a restored source reads again every
 * message after its checkpoint's offset: exactly-once from the last completed checkpoint.
 * Completed checkpoints free what no retained checkpoint needs, here and in the mirror.
 */
export class FeedRelay {
  /** Per feed: the offset up to which the current deployment's mirrors have the entries. */
  private readonly sent = new Map<string, number>();
  private readonly endSent = new Set<string>();
  private send: FeedSend | null = null;
  /** Per checkpoint this attempt snapshotted: each feed's lowest source offset in it. */
  private readonly offsets = new Map<number, Map<string, number>>();

  constructor(
    private readonly feeds: LiveFeeds,
    private readonly onFailure: (reason: string) => void,
  ) {
    feeds.onMessage = () => this.flush();
  }

  private get logs() {
    return Object.entries(this.feeds.readers);
  }

  /**
   * A restore in a new process (a resume) takes back the messages its checkpoint carried as
   * received but unread; in the process that wrote them, the log has them already.
   */
  adoptCarried(snaps: Record<string, SubtaskSnapshot[]>): void {
    for (const [node, log] of this.logs) {
      const own = snaps[node]?.find((s) => s.source && s.subtask.endsWith('#0'))?.source as SplitSourceSnapshot | undefined;
      if (own?.carried !== undefined) log.adopt(own.offset, own.carried);
    }
  }

  /** What each feed's mirror starts with in the next deployment; nothing more goes out until `attach`. */
  backlogs(): Record<string, FeedBacklog> {
    this.send = null;
    this.offsets.clear();
    this.endSent.clear();
    const out: Record<string, FeedBacklog> = {};
    for (const [node, log] of this.logs) {
      const { backlog, upTo } = log.backlog();
      out[node] = backlog;
      this.sent.set(node, upTo);
      if (backlog.ended) this.endSent.add(node);
    }
    return out;
  }

  /** The deployment is up: what arrived while it deployed goes out now, each message after it as it comes. */
  attach(send: FeedSend): void {
    this.send = send;
    this.flush();
  }

  detach(): void {
    this.send = null;
  }

  private flush(): void {
    for (const [node, log] of this.logs) {
      const failure = log.failed();
      if (failure) return this.onFailure(failure);
      if (!this.send) continue;
      const { entries, upTo, ended } = log.stableSince(this.sent.get(node) ?? 0);
      const end = ended && !this.endSent.has(node);
      if (!entries.length && !end) continue;
      this.sent.set(node, upTo);
      if (end) this.endSent.add(node);
      this.send(node, entries, end);
    }
  }

  /** A source subtask's snapshot for checkpoint `id`: where its feed was read to. */
  noteSnapshot(id: number, snap: SubtaskSnapshot): void {
    if (!snap.source) return;
    const node = nodeOf(snap.subtask);
    if (!this.feeds.readers[node]) return;
    const at = this.offsets.get(id) ?? new Map<string, number>();
    at.set(node, Math.min(at.get(node) ?? Infinity, snap.source.offset));
    this.offsets.set(id, at);
  }

  /** Checkpoint `id` completed: the logs free what no retained checkpoint can need. */
  completed(id: number): void {
    const at = this.offsets.get(id);
    for (const k of [...this.offsets.keys()]) if (k <= id) this.offsets.delete(k);
    if (!at) return;
    for (const [node, offset] of at) this.feeds.readers[node]?.releaseMirrored(offset);
  }
}
