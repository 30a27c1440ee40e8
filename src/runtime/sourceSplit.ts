import type { RawRecord, SourceReader } from '../engine/source.ts';

/**
 * Subtask `index` of `parallelism` reads the records whose position is ≡ index (mod parallelism).
 * Its offset is the position in the underlying source, so replay from a checkpoint is exact.
 */
export function splitReader(inner: SourceReader, index: number, parallelism: number): SourceReader {
  if (parallelism === 1) return inner;
  return {
    read(max) {
      const out: RawRecord[] = [];
      while (out.length < max && !inner.done()) {
        const at = inner.offset();
        const got = inner.read(1);
        if (at % parallelism === index) out.push(...got);
      }
      return out;
    },
    done: () => inner.done(),
    offset: () => inner.offset(),
    seek: (o) => inner.seek(o),
  };
}
