/**
 * A lossless JSON encoding for everything keyed, operator and timer state may hold (values that
 * structuredClone accepts). Plain JSON values stay as they are, so a savepoint stays readable;
 * everything JSON would mangle becomes a tagged object `{"$w": tag, ...}`:
 * Map, Set, Date, RegExp, BigInt, typed arrays, ArrayBuffer, NaN, ±Infinity, -0, undefined,
 * array holes, and plain objects that have a "$w" key of their own (so tags stay unambiguous).
 */

const TAG = '$w';

type Tagged = { [TAG]: string; v?: unknown; [k: string]: unknown };

const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;

function typedArrayName(v: object): TypedArrayName | null {
  if (!ArrayBuffer.isView(v) || v instanceof DataView) return null;
  const name = v.constructor.name;
  return name in TYPED_ARRAYS ? (name as TypedArrayName) : null;
}

/** Where a value sits in the document, for error messages; built only when one is thrown. */
class PathTrail {
  private readonly parts: (string | number)[] = [];
  push(p: string | number): void {
    this.parts.push(p);
  }
  pop(): void {
    this.parts.pop();
  }
  toString(): string {
    return this.parts.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || '(root)';
  }
}

/** Turns `value` into plain JSON data; throws naming the path for what cannot be stored. */
export function encodeForJson(value: unknown): unknown {
  return encode(value, new PathTrail(), new Set());
}

function encodeNumber(n: number): unknown {
  if (Number.isNaN(n)) return { [TAG]: 'num', v: 'NaN' };
  if (n === Infinity) return { [TAG]: 'num', v: 'Infinity' };
  if (n === -Infinity) return { [TAG]: 'num', v: '-Infinity' };
  if (Object.is(n, -0)) return { [TAG]: 'num', v: '-0' };
  return n;
}

function encode(v: unknown, path: PathTrail, open: Set<object>): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return encodeNumber(v);
    case 'undefined':
      return { [TAG]: 'undefined' };
    case 'bigint':
      return { [TAG]: 'bigint', v: v.toString() };
    case 'function':
    case 'symbol':
      throw new Error(`savepoint: ${path} is a ${typeof v}, which state cannot hold (state values must be structured-cloneable); store plain data instead`);
  }
  if (v === null) return null;
  const o = v as object;
  if (open.has(o)) throw new Error(`savepoint: ${path} refers back to itself (a cycle), which a savepoint cannot store; keep state values acyclic`);
  open.add(o);
  try {
    return encodeObject(o, path, open);
  } finally {
    open.delete(o);
  }
}

function encodeObject(o: object, path: PathTrail, open: Set<object>): unknown {
  const each = (items: Iterable<unknown>, label: string): unknown[] => {
    const out: unknown[] = [];
    let i = 0;
    for (const x of items) {
      path.push(label ? `${label}[${i}]` : i);
      out.push(encode(x, path, open));
      path.pop();
      i++;
    }
    return out;
  };
  if (Array.isArray(o)) {
    const out: unknown[] = new Array(o.length);
    for (let i = 0; i < o.length; i++) {
      if (!(i in o)) {
        out[i] = { [TAG]: 'hole' };
        continue;
      }
      path.push(i);
      out[i] = encode(o[i], path, open);
      path.pop();
    }
    return out;
  }
  if (o instanceof Map) return { [TAG]: 'Map', v: each([...o].flat(1), 'entries') };
  if (o instanceof Set) return { [TAG]: 'Set', v: each(o, 'values') };
  if (o instanceof Date) return { [TAG]: 'Date', v: encodeNumber(o.getTime()) };
  if (o instanceof RegExp) return { [TAG]: 'RegExp', v: o.source, flags: o.flags };
  if (o instanceof ArrayBuffer) return { [TAG]: 'ArrayBuffer', v: [...new Uint8Array(o)] };
  if (ArrayBuffer.isView(o)) {
    const name = typedArrayName(o);
    if (!name) return { [TAG]: 'DataView', v: [...new Uint8Array(o.buffer, o.byteOffset, o.byteLength)] };
    return { [TAG]: name, v: each(o as unknown as Iterable<unknown>, '') };
  }
  if (o instanceof Error) return { [TAG]: 'Error', v: o.message, name: o.name };
  // Like structuredClone, class instances keep their own fields and become plain objects.
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    path.push(k);
    out[k] = encode((o as Record<string, unknown>)[k], path, open);
    path.pop();
  }
  return TAG in out ? { [TAG]: 'object', v: Object.entries(out) } : out;
}

/** The inverse of `encodeForJson` on parsed JSON; throws naming the path for unknown tags. */
export function decodeFromJson(value: unknown): unknown {
  return decode(value, new PathTrail());
}

function decode(v: unknown, path: PathTrail): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (isTag(x) && x[TAG] === 'hole') continue;
      path.push(i);
      out[i] = decode(x, path);
      path.pop();
    }
    return out;
  }
  if (isTag(v)) return decodeTagged(v, path);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    path.push(k);
    out[k] = decode((v as Record<string, unknown>)[k], path);
    path.pop();
  }
  return out;
}

function isTag(v: unknown): v is Tagged {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Tagged)[TAG] === 'string';
}

const NUMBERS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function decodeTagged(t: Tagged, path: PathTrail): unknown {
  const bad = (what: string) => new Error(`savepoint: the file is corrupted (${path}: ${what}); export the savepoint again`);
  const list = (): unknown[] => {
    if (!Array.isArray(t.v)) throw bad(`a ${t[TAG]} without a value list`);
    return decode(t.v, path) as unknown[];
  };
  const tag = t[TAG];
  switch (tag) {
    case 'num':
      if (typeof t.v !== 'string' || !(t.v in NUMBERS)) throw bad(`unknown number ${JSON.stringify(t.v)}`);
      return NUMBERS[t.v];
    case 'undefined':
      return undefined;
    case 'bigint':
      return BigInt(String(t.v));
    case 'Map': {
      const flat = list();
      const m = new Map();
      for (let i = 0; i + 1 < flat.length; i += 2) m.set(flat[i], flat[i + 1]);
      return m;
    }
    case 'Set':
      return new Set(list());
    case 'Date':
      return new Date(decode(t.v, path) as number);
    case 'RegExp':
      return new RegExp(String(t.v), String(t.flags ?? ''));
    case 'ArrayBuffer':
      return new Uint8Array(list() as number[]).buffer;
    case 'DataView':
      return new DataView(new Uint8Array(list() as number[]).buffer);
    case 'Error': {
      const e = new Error(String(t.v));
      e.name = String(t.name ?? 'Error');
      return e;
    }
    case 'object':
      return Object.fromEntries(list() as [string, unknown][]);
  }
  if (tag in TYPED_ARRAYS) return (TYPED_ARRAYS[tag as TypedArrayName] as unknown as { from(x: unknown[]): unknown }).from(list());
  throw bad(`unknown value tag "${tag}"`);
}
