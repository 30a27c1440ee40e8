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
        n += arraySize(v, depth);
      } else {
        for (const k in v as Record<string, unknown>) n += 2 * k.length + approxSize((v as Record<string, unknown>)[k], depth + 1);
      }
      return n;
    }
    default:
      return 8;
  }
}

/** Arrays longer than this are estimated from an even sample (sink epochs hold 10^5 rows). */
const SAMPLED_ARRAY = 64;

function arraySize(v: unknown[], depth: number): number {
  if (v.length <= SAMPLED_ARRAY) {
    let n = 0;
    for (const x of v) n += approxSize(x, depth + 1);
    return n;
  }
  const step = v.length / SAMPLED_ARRAY;
  let sample = 0;
  for (let i = 0; i < SAMPLED_ARRAY; i++) sample += approxSize(v[Math.floor(i * step)], depth + 1);
  return Math.round((sample / SAMPLED_ARRAY) * v.length);
}
