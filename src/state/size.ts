/** A rough byte count of a JSON-like value, used for state-size metrics; it never throws. */
export function approxSize(v: unknown, depth = 0): number {
  if (v === null || v === undefined) return 4;
  switch (typeof v) {
    case 'number':
      return 8;
    case 'boolean':
      return 4;
    case 'string':
      return 2 * v.length + 8;
    case 'object': {
      if (depth > 8) return 16;
      let n = 16;
      if (v instanceof Map) {
        for (const [k, x] of v) n += approxSize(k, depth + 1) + approxSize(x, depth + 1);
      } else if (Array.isArray(v)) {
        for (const x of v) n += approxSize(x, depth + 1);
      } else {
        for (const k in v as Record<string, unknown>) n += 2 * k.length + approxSize((v as Record<string, unknown>)[k], depth + 1);
      }
      return n;
    }
    default:
      return 8;
  }
}
