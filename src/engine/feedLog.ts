import type { RawRecord, SourceReader } from '../core/source.ts';
import type { FeedDecoder } from './formats/feedMessages.ts';
import type { FeedBufferPolicy } from '../pipeline/kinds/feedSource.ts';

/** What a full buffer does: fail the job (nothing is lost silently), or drop new messages as counted dead letters. */

export interface FeedLogOptions {
  /** Names the source in errors ("live feed \"ticks\" (ws://…)"). */
  name: string;
  decoder: FeedDecoder;
  /** Messages kept at most: those since the oldest retained checkpoint, read or not. */
  limit: number;
  onFull: FeedBufferPolicy;
  /** Completed checkpoints whose offsets stay replayable (time travel goes back this far). */
  retain: number;
  /** Tells this connection's log from another process's: only another's pending messages are adopted. */
  session: string;
}

/** What a checkpoint carries of a live feed, for a resume in another process. */
export interface FeedCarry {
  session: string;
  pending: string[];
}

/**
 * A log's entries from `base` on, for a copy of it on another thread (a worker running the
 * source while the connection stays on the job manager's): a message as its text, a gap of
 * dropped messages as their count.
 */
export interface FeedBacklog {
  base: number;
  entries: (string | number)[];
  ended: boolean;
  session: string;
  retain: number;
}

/** Messages dropped while the buffer was full, as one entry in their place. */
interface Gap {
  dropped: number;
}

type Entry = string | Gap;

/** The buffer overflowed with the 'fail' policy: the job stops and says why. */
export class FeedBufferFull extends Error {}

/**
 * The replayable part of a live feed. A live feed cannot be rewound, so every message received
 * is kept here from the offset of the oldest retained completed checkpoint on; a restore seeks
 * back to its checkpoint's offset and reads those messages again, so each lands exactly once.
 * Completing a checkpoint (`release`) frees what no retained checkpoint can need. Offsets count
 * messages, from 0 at the first message this feed ever gave the job.
 *
 * The log lives as long as the connection, across restarts of the job's attempts; a process that
 * dies loses it. For that case a checkpoint carries the messages received but not yet read
 * (`pending`), and `adopt` takes them back in a new process; messages read after that
 * checkpoint and before the crash are gone unless the server sends them again.
 */
export class FeedLog implements SourceReader {
  private entries: Entry[] = [];
  /** Offset of entries[0]. */
  private base = 0;
  private pos = 0;
  private ended = false;
  private failure: string | null = null;
  private completed: number[] = [];
  private adopted = false;
  /** Messages dropped by the 'drop' policy so far. */
  dropped = 0;
  /** Messages received so far (replays of adopted ones not counted). */
  received = 0;

  constructor(private opts: FeedLogOptions) {}

  /** A message arrived. */
  push(text: string): void {
    if (this.ended) return;
    this.received++;
    if (this.entries.length < this.opts.limit) {
      this.entries.push(text);
      return;
    }
    if (this.opts.onFull === 'fail') {
      this.failure ??= `${this.opts.name}: ${this.opts.limit} messages are buffered since the oldest retained checkpoint (the bufferLimit), so a restore could not replay them all. Checkpoints are not completing often enough, or the pipeline reads slower than the feed sends: checkpoint more often, raise bufferLimit, or set onBufferFull to "drop" to dead-letter the overflow`;
      return;
    }
    this.dropped++;
    const last = this.entries[this.entries.length - 1];
    if (typeof last === 'object') last.dropped++;
    else this.entries.push({ dropped: 1 });
  }

  /** The feed ended for good (closed by the user or the server, with no reconnect left). */
  end(): void {
    this.ended = true;
  }

  read(max: number): RawRecord[] {
    if (this.failure) throw new FeedBufferFull(this.failure);
    const out: RawRecord[] = [];
    const top = this.base + this.entries.length;
    while (this.pos < top && out.length < max) {
      const e = this.entries[this.pos - this.base];
      const n = ++this.pos;
      if (typeof e === 'string') out.push(...this.opts.decoder.decode(e, n));
      else out.push({ line: n, error: `${e.dropped} message(s) dropped before message ${n + 1}: the buffer of ${this.opts.limit} messages was full (onBufferFull: "drop")` });
    }
    return out;
  }

  done(): boolean {
    return this.ended && this.pos >= this.base + this.entries.length;
  }

  waiting(): boolean {
    return !this.ended && this.failure === null && this.pos >= this.base + this.entries.length;
  }

    offset(): number {
    return this.pos;
  }

  seek(o: number): void {
    if (o === this.pos) return;
    if (o < this.base) throw new Error(`${this.opts.name} cannot replay from message ${o + 1}: a live feed keeps only the messages since its oldest retained checkpoint (from message ${this.base + 1} now); restore a later checkpoint or run the job again`);
    if (o > this.base + this.entries.length) throw new Error(`${this.opts.name} cannot resume at message ${o + 1}: only ${this.base + this.entries.length} messages were received; the checkpoint belongs to another run of this feed`);
    this.pos = o;
  }

  /** A checkpoint with this source at `offset` completed: free what no retained checkpoint needs. */
  release(offset: number): void {
    this.completed.push(offset);
    if (this.completed.length > this.opts.retain) this.completed.shift();
    const keepFrom = Math.min(this.completed[0], this.pos);
    if (keepFrom <= this.base) return;
    this.entries = this.entries.slice(keepFrom - this.base);
    this.base = keepFrom;
  }

  checkpointCompleted(offset: number): void {
    this.release(offset);
  }

  /** Messages received but not read yet: a checkpoint carries them for a resume in a new process. */
  carry(): FeedCarry {
    // A gap stands for dropped messages, which are gone: carried as nothing, it keeps the count of offsets.
    return { session: this.opts.session, pending: this.entries.slice(this.pos - this.base).map((e) => (typeof e === 'string' ? e : '')) };
  }

  /**
   * A restore from a checkpoint at `offset`. Taken in this process, the log already holds what
   * it needs. Taken in a new process (a resume), the checkpoint's pending messages come first,
   * then what this connection received meanwhile; messages the old process read after that
   * checkpoint are lost.
   */
  adopt(offset: number, carried: unknown): void {
    const c = carried as FeedCarry | undefined;
    if (!c || c.session === this.opts.session || this.adopted) return;
    this.adopted = true;
    this.entries = [...c.pending, ...this.entries];
    this.base = offset;
    this.pos = offset;
  }

  /** The buffer overflowed with the 'fail' policy: why (null: it did not). */
  failed(): string | null {
    return this.failure;
  }

  /** The offset after the last entry that will not change any more (a trailing gap may still grow until the feed ends). */
  private stableTop(): number {
    const last = this.entries[this.entries.length - 1];
    return this.base + this.entries.length - (!this.ended && typeof last === 'object' ? 1 : 0);
  }

  /** Everything held, from the oldest retained checkpoint's offset on, for a mirror; `upTo` is where it ends. */
  backlog(): { backlog: FeedBacklog; upTo: number } {
    const upTo = this.stableTop();
    return { backlog: { base: this.base, entries: this.since(this.base, upTo), ended: this.ended && upTo === this.base + this.entries.length, session: this.opts.session, retain: this.opts.retain }, upTo };
  }

  /** Entries from offset `from` that will not change any more, for a mirror that has those before; and where they end. */
  stableSince(from: number): { entries: (string | number)[]; upTo: number; ended: boolean } {
    const upTo = this.stableTop();
    return { entries: this.since(Math.max(from, this.base), upTo), upTo, ended: this.ended && upTo === this.base + this.entries.length };
  }

  private since(from: number, to: number): (string | number)[] {
    return this.entries.slice(from - this.base, to - this.base).map((e) => (typeof e === 'string' ? e : e.dropped));
  }

  /**
   * This log becomes a mirror of another one (the job manager's, which holds the connection and
   * applies the buffer limit): it starts with that log's backlog, read from its base.
   */
  mirror(b: FeedBacklog): void {
    this.entries = [];
    this.base = this.pos = b.base;
    this.ended = false;
    this.opts = { ...this.opts, session: b.session, retain: b.retain };
    this.adopted = true;
    this.append(b.entries, b.ended);
  }

  /** A mirror receives what its original took in since (the limit was applied there). */
  append(entries: readonly (string | number)[], ended: boolean): void {
    for (const e of entries) this.entries.push(typeof e === 'string' ? e : { dropped: e });
    if (ended) this.ended = true;
  }

  /**
   * The original of mirrored logs: a checkpoint completed with its source at `offset` (read on
   * the mirror, so this log's own position moves there first).
   */
  releaseMirrored(offset: number): void {
    if (offset < this.base || offset > this.base + this.entries.length) return;
    this.pos = Math.max(this.pos, offset);
    this.release(offset);
  }

  /** Messages held now (for the node's state line). */
  buffered(): number {
    return this.entries.length;
  }
}
