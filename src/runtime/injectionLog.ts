import type { RawRecord, SourcePosition, SourceReader } from '../core/source.ts';

/**
 * Records a user injected into a running source, in order. The log is part of the source's input,
 * like the rows of its file: it outlives every attempt of the job, and the source's checkpointed
 * state says how many of its entries were read. A restore (after a kill, or travelling back to an
 * earlier checkpoint) reads the entries after that count again, so each lands exactly once.
 */
export class InjectionLog {
  private readonly entries = new Map<string, RawRecord[]>();

  append(source: string, row: Record<string, unknown>): number {
    const list = this.entries.get(source) ?? [];
    list.push({ value: row, raw: JSON.stringify(row), line: list.length + 1 });
    this.entries.set(source, list);
    return list.length;
  }

  /**
   * A restore in a process that did not see the injections (a resumed job): the checkpoint says
   * `read` entries were consumed (their effect is in the restored state) and carries the ones
   * appended but not yet read. The log takes them at the same positions, so later appends are
   * neither skipped nor mistaken for replays. A log that already holds them is left as it is.
   */
  adopt(source: string, read: number, pending: readonly RawRecord[]): void {
    const list = this.of(source) as RawRecord[];
    while (list.length < read) list.push({ error: 'read before this process started; its effect is in the restored state' });
    for (let i = list.length - read; i < pending.length; i++) list.push(pending[i]);
  }

  of(source: string): readonly RawRecord[] {
    return this.entries.get(source) ?? (this.entries.set(source, []), this.entries.get(source)!);
  }
}

/**
 * A source reader that reads pending injected records before the next rows of its own input.
 * `offset`/`seek` stay the inner reader's, so split and changelog logic are unchanged; the
 * position in the log is checkpointed beside it (`injected`).
 */
export class InjectingReader implements SourceReader {
  injected = 0;

  constructor(
    private readonly inner: SourceReader,
    private readonly log: readonly RawRecord[],
  ) {}

  /** Entries appended but not read yet: a checkpoint carries them for a resume in a new process. */
  pending(): RawRecord[] {
    return this.log.slice(this.injected);
  }

  read(max: number): RawRecord[] {
    // Nothing injected waiting (the usual case): the inner read as it is, not copied into a new array per poll.
    if (this.injected >= this.log.length) return this.inner.read(max);
    const out = this.log.slice(this.injected, this.injected + max);
    this.injected += out.length;
    return out.length < max ? [...out, ...this.inner.read(max - out.length)] : out;
  }

  done(): boolean {
    return this.injected >= this.log.length && this.inner.done();
  }

  offset(): number {
    return this.inner.offset();
  }

  seek(o: number, at?: SourcePosition): void {
    this.inner.seek(o, at);
  }

  position(): SourcePosition | undefined {
    return this.inner.position?.();
  }
}
