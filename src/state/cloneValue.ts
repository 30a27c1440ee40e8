/**
 * structuredClone for state values, with a fast path. Copy-on-write snapshots copy a value the
 * first time it is read after each checkpoint, and structuredClone costs a few microseconds per
 * call however small the value: with a checkpoint every 100 ms that was the largest cost of a
 * keyed aggregate. Small trees of plain objects, arrays and primitives (nearly every state
 * value) are copied directly; anything else — Maps, Dates, typed arrays, class instances,
 * shared or cyclic references, deep or wide values — goes to structuredClone, so the result is
 * always what structuredClone would give.
 */
export function cloneValue<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  const seen: object[] = [];
  const copy = copyPlain(v, 0, seen);
  return copy === FALLBACK ? structuredClone(v) : (copy as T);
}

const FALLBACK = Symbol('fallback');
const MAX_DEPTH = 4;
const MAX_OBJECTS = 32;

function copyItem(x: unknown, depth: number, seen: object[]): unknown {
  if (typeof x === 'object' && x !== null) return copyPlain(x, depth + 1, seen);
  if (typeof x === 'function' || typeof x === 'symbol') return FALLBACK;
  return x;
}

function copyPlain(v: object, depth: number, seen: object[]): unknown {
  if (depth > MAX_DEPTH || seen.length >= MAX_OBJECTS || seen.includes(v)) return FALLBACK;
  seen.push(v);
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      if (!(i in v)) return FALLBACK;
      const c = copyItem(v[i], depth, seen);
      if (c === FALLBACK) return FALLBACK;
      out[i] = c;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return FALLBACK;
  const out: Record<string, unknown> = {};
  for (const k in v) {
    const c = copyItem((v as Record<string, unknown>)[k], depth, seen);
    if (c === FALLBACK) return FALLBACK;
    out[k] = c;
  }
  return out;
}
