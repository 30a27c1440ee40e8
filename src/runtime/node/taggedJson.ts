/**
 * JSON that keeps what structured clone keeps and plain JSON loses: Map, Set, Date, typed
 * arrays, undefined, NaN, ±Infinity and bigint. Special values become `{"$w": tag, "v": …}`;
 * a genuine object with a `$w` key is wrapped too, so decoding is never ambiguous.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const TYPED: Record<string, new (xs: number[]) => ArrayBufferView> = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array,
} as unknown as Record<string, new (xs: number[]) => ArrayBufferView>;

export function toTaggedJson(v: unknown, path = '$'): Json {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? v : { $w: 'num', v: String(v) };
    case 'string':
    case 'boolean':
      return v;
    case 'undefined':
      return { $w: 'undef' };
    case 'bigint':
      return { $w: 'bigint', v: v.toString() };
    case 'function':
    case 'symbol':
      throw new Error(`cannot store a ${typeof v} in a checkpoint (at ${path})`);
  }
  if (v === null) return null;
  if (Array.isArray(v)) return Array.from(v, (x, i) => toTaggedJson(x, `${path}[${i}]`));
  if (v instanceof Map) return { $w: 'map', v: [...v].map(([k, x], i) => [toTaggedJson(k, `${path}.key${i}`), toTaggedJson(x, `${path}.${String(k)}`)]) };
  if (v instanceof Set) return { $w: 'set', v: [...v].map((x, i) => toTaggedJson(x, `${path}[${i}]`)) };
  if (v instanceof Date) return { $w: 'date', v: v.getTime() };
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const t = v.constructor.name;
    if (!(t in TYPED)) throw new Error(`cannot store a ${t} in a checkpoint (at ${path})`);
    return { $w: 'typed', t, v: Array.from(v as unknown as ArrayLike<number>) };
  }
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = toTaggedJson(x, `${path}.${k}`);
  return Object.hasOwn(out, '$w') ? { $w: 'obj', v: out } : out;
}

export function fromTaggedJson(j: Json): unknown {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return j.map(fromTaggedJson);
  if (typeof j.$w === 'string') {
    const v = j.v as Json;
    switch (j.$w) {
      case 'num':
        return Number(v);
      case 'undef':
        return undefined;
      case 'bigint':
        return BigInt(v as string);
      case 'map':
        return new Map((v as Json[][]).map(([k, x]) => [fromTaggedJson(k), fromTaggedJson(x)]));
      case 'set':
        return new Set((v as Json[]).map(fromTaggedJson));
      case 'date':
        return new Date(v as number);
      case 'typed':
        return new TYPED[j.t as string](v as number[]);
      case 'obj':
        return decodeObject(v as Record<string, Json>);
    }
  }
  return decodeObject(j);
}

function decodeObject(j: Record<string, Json>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(j)) out[k] = fromTaggedJson(x);
  return out;
}

export const stringifyTagged = (v: unknown): string => JSON.stringify(toTaggedJson(v));
export const parseTagged = (text: string): unknown => fromTaggedJson(JSON.parse(text) as Json);
