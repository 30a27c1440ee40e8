/**
 * Runtime value helpers shared by the evaluator and the functions. Rows are loosely typed JSON, so
 * every operator coerces its inputs here. Anything that cannot be coerced becomes NULL rather than
 * throwing: like Flink's TRY_CAST, one odd record should not fail the whole pipeline.
 */

export const isNull = (v: unknown): v is null | undefined => v === null || v === undefined;

/** Numbers pass through; numeric strings are parsed; anything else (or NaN/±Infinity) is NULL. */
export function toNum(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return null;
    const n = Number(s);
    return Number.isFinite(n) ? n : null;
  }
  if (typeof v === 'bigint') return Number(v);
  return null;
}

/**
 * Arithmetic results go through this so that NaN and overflow never leak out as non-SQL values.
 * Adding 0 turns -0 into 0, which SQL has no notion of and which would otherwise surprise Object.is.
 */
export const finite = (n: number): number | null => (Number.isFinite(n) ? n + 0 : null);

/** String form as Flink's CAST(x AS STRING) would print it (booleans upper-case, JSON as text). */
export function toStr(v: unknown): string | null {
  if (isNull(v)) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? null;
}

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'f', 'no', 'n', '0']);

/** Booleans pass through; numbers are true when non-zero; Flink's boolean spellings are accepted. */
export function toBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isNaN(v) ? null : v !== 0;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE_WORDS.has(s)) return true;
    if (FALSE_WORDS.has(s)) return false;
  }
  return null;
}

/**
 * Orders two non-null values: <0, 0, >0, or null when they cannot be compared. Same-typed values
 * compare naturally; a number against a numeric string compares numerically so that CSV-sourced
 * text still works against numeric literals. Strings compare by UTF-16 code unit, like Java.
 */
export function compare(a: unknown, b: unknown): number | null {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'number' && tb === 'number') return cmpNum(a as number, b as number);
  if (ta === 'string' && tb === 'string') return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
  if (ta === 'boolean' && tb === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (ta === 'number' || tb === 'number') {
    const x = toNum(a);
    const y = toNum(b);
    return x === null || y === null ? null : cmpNum(x, y);
  }
  if (ta === 'boolean' || tb === 'boolean') {
    const x = toBool(a);
    const y = toBool(b);
    return x === null || y === null ? null : x === y ? 0 : x ? 1 : -1;
  }
  if (ta === 'object' && tb === 'object') {
    // JSON values only support equality; ordering them would be arbitrary.
    return JSON.stringify(a) === JSON.stringify(b) ? 0 : null;
  }
  return null;
}

function cmpNum(x: number, y: number): number | null {
  if (Number.isNaN(x) || Number.isNaN(y)) return null;
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * SQL equality: NULL if either side is NULL. Values of unrelated types (e.g. 'abc' and 5) are simply
 * unequal rather than unknown, so `x NOT IN ('a', 1)` still keeps rows whose x is 'b'.
 */
export function sqlEquals(a: unknown, b: unknown): boolean | null {
  if (isNull(a) || isNull(b)) return null;
  // Same-typed primitives need no ordering, and string ordering is much slower than ===.
  if (typeof a === typeof b && typeof a !== 'object') return a === b;
  return compare(a, b) === 0;
}

/**
 * Builds a matcher for a SQL LIKE pattern (% is any run, _ is one character). The usual shapes
 * 'abc', 'abc%', '%abc' and '%abc%' use plain string methods, which are several times faster than
 * a RegExp; everything else is translated into an anchored one.
 */
export function likeMatcher(pattern: string): (s: string) => boolean {
  const core = pattern.replace(/^%|%$/g, '');
  if (!/[%_]/.test(core)) {
    const lead = pattern.startsWith('%');
    const trail = pattern.length > 1 && pattern.endsWith('%');
    if (pattern === '%' || (lead && trail)) return (s) => s.includes(core);
    if (lead) return (s) => s.endsWith(core);
    if (trail) return (s) => s.startsWith(core);
    return (s) => s === core;
  }
  let re = '^';
  for (const ch of pattern) {
    if (ch === '%') re += '[\\s\\S]*';
    else if (ch === '_') re += '[\\s\\S]';
    else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  // The `u` flag makes `_` match one code point, as Flink counts characters.
  const compiled = new RegExp(re + '$', 'u');
  return (s) => compiled.test(s);
}

/** Number of Unicode code points, counted without allocating an array. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Slices by code points; the fast path covers the usual surrogate-free strings. */
export function codePointSlice(s: string, from: number, to: number): string {
  if (!/[\ud800-\udfff]/.test(s)) return s.slice(from, to);
  return Array.from(s).slice(from, to).join('');
}
