/** A bounded list that drops its oldest item: every observatory buffer is capped. */
export class Ring<T> {
  private items: T[] = [];
  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity * 2) this.items = this.items.slice(-this.capacity);
  }

  /** The newest `capacity` items, oldest first. */
  toArray(): T[] {
    return this.items.length > this.capacity ? this.items.slice(-this.capacity) : [...this.items];
  }

  /** Returns and forgets everything (for "since the previous frame" lists). */
  drain(): T[] {
    const out = this.toArray();
    this.items = [];
    return out;
  }

  clear(): void {
    this.items = [];
  }

  get size(): number {
    return Math.min(this.items.length, this.capacity);
  }
}

/** −Infinity/+Infinity watermarks are shown as "none". */
export const finiteOrNull = (n: number): number | null => (Number.isFinite(n) ? n : null);
