import { seededRng } from '../../src/core/rng.ts';
import type { RawRecord, SourceReader } from '../../src/core/source.ts';

/** One input record of the keyed count: an integer key and an amount, built before timing starts. */
export interface KeyedEvent {
  key: number;
  amount: number;
}

/** `count` events over `keys` keys. Every key appears at least once when count ≥ keys (the first pass walks them all). */
export function keyedEvents(count: number, keys: number, seed = 7): KeyedEvent[] {
  const rng = seededRng(seed);
  const out: KeyedEvent[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = { key: i < keys ? i : rng.int(keys), amount: Math.round(rng.next() * 10_000) / 100 };
  return out;
}

/** A replayable reader over records that already exist: the engine sees the same objects as the hand loop. */
export function readyReader(rows: readonly object[]): SourceReader {
  let pos = 0;
  return {
    read(max) {
      const end = Math.min(rows.length, pos + max);
      const out: RawRecord[] = new Array(end - pos);
      for (let i = 0; pos < end; i++) out[i] = { value: rows[pos++] };
      return out;
    },
    done: () => pos >= rows.length,
    offset: () => pos,
    seek(o) {
      pos = Math.max(0, Math.min(o, rows.length));
    },
  };
}
