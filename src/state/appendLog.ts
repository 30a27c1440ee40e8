/** Entries per sealed chunk: large enough that a snapshot's chunk list stays short, small enough that the tail copy is cheap. */
export const LOG_CHUNK = 4096;

/**
 * An append-only list of entries kept in chunks: the state of a table that only ever grows (a
 * sink whose input the plan says is append-only). A full chunk is sealed and never written
 * again, so a snapshot hands over the sealed chunks themselves and copies only the open tail: a
 * store that already copied a chunk for an earlier checkpoint need not copy it again, and a
 * checkpoint costs what arrived since the last one, not the whole log.
 *
 * Chunks restored from a snapshot are shared with it and count as sealed. The only change that
 * is not an append, `removeLast` (a retraction the plan did not foresee), writes a new chunk in
 * place of the one it changes (copy-on-write), so no snapshot ever sees a chunk change.
 */
export class AppendLog<T> {
  private sealed: T[][] = [];
  private tail: T[] = [];
  private sealedCount = 0;

  constructor(private readonly chunkSize = LOG_CHUNK) {}

  push(v: T): void {
    const tail = this.tail;
    tail.push(v);
    if (tail.length >= this.chunkSize) {
      this.sealed.push(tail);
      this.sealedCount += tail.length;
      this.tail = [];
    }
  }

  size(): number {
    return this.sealedCount + this.tail.length;
  }

  /** Every entry in the order it was appended. */
  forEach(visit: (v: T) => void): void {
    for (const c of this.sealed) for (let i = 0; i < c.length; i++) visit(c[i]);
    for (let i = 0; i < this.tail.length; i++) visit(this.tail[i]);
  }

  /**
   * Removes the last entry that `same` accepts, scanning from the end; false when none does.
   * Linear in the log's length: for the rare change that is not an append.
   */
  removeLast(same: (v: T) => boolean): boolean {
    for (let i = this.tail.length - 1; i >= 0; i--) {
      if (!same(this.tail[i])) continue;
      this.tail.splice(i, 1);
      return true;
    }
    for (let c = this.sealed.length - 1; c >= 0; c--) {
      const chunk = this.sealed[c];
      for (let i = chunk.length - 1; i >= 0; i--) {
        if (!same(chunk[i])) continue;
        const copy = chunk.slice(0, i).concat(chunk.slice(i + 1));
        if (copy.length) this.sealed[c] = copy;
        else this.sealed.splice(c, 1);
        this.sealedCount--;
        return true;
      }
    }
    return false;
  }

  clear(): void {
    this.sealed = [];
    this.tail = [];
    this.sealedCount = 0;
  }

  /** The log as chunks: the sealed ones themselves (never changed again), the tail as a copy. */
  snapshot(): T[][] {
    return this.tail.length ? [...this.sealed, this.tail.slice()] : [...this.sealed];
  }

  /** Appends snapshot chunks as sealed chunks, shared with the snapshot (which may be restored again). */
  adopt(chunks: readonly T[][]): void {
    if (this.tail.length) {
      this.sealed.push(this.tail);
      this.sealedCount += this.tail.length;
      this.tail = [];
    }
    for (const c of chunks) {
      if (!c.length) continue;
      this.sealed.push(c);
      this.sealedCount += c.length;
    }
  }
}
