/** Flink's string built-ins beyond the basic ones in functions.ts, with Flink's NULL handling. */
import type { Evaluator, FunctionDef } from './functionKit.ts';
import { always, str1, strInts, strN } from './functionKit.ts';
import { codePointLength, codePointSlice, toNum, toStr } from './values.ts';

/** The longest text LPAD, RPAD and REPEAT build (characters). */
const MAX_TEXT = 10_000_000;

export const TRIM_SIDES = ['LEADING', 'TRAILING', 'BOTH'] as const;

/** Strips any of `chars` (a set of characters, as Flink reads it) from the chosen side(s). */
export function trimChars(s: string, chars: string, side: string): string {
  let from = 0;
  let to = s.length;
  if (side !== 'TRAILING') while (from < to && chars.includes(s[from])) from++;
  if (side !== 'LEADING') while (to > from && chars.includes(s[to - 1])) to--;
  return s.slice(from, to);
}

/** Regular expressions are compiled once per distinct pattern; a pattern JS cannot read is NULL, as Flink's invalid one. */
const regexCache = new Map<string, RegExp | null>();
export function regex(pattern: string, flags = ''): RegExp | null {
  const key = flags + '/' + pattern;
  let re = regexCache.get(key);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, flags);
    } catch {
      re = null;
    }
    if (regexCache.size > 256) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

function pad(left: boolean): FunctionDef['compile'] {
  // Flink: a negative length or an empty pad is NULL; a longer string is cut to the length.
  return ([a, n, p]) => (row) => {
    const s = toStr(a(row));
    if (s === null) return null;
    const lenRaw = toNum(n(row));
    if (lenRaw === null) return null;
    const pd = toStr(p(row));
    if (pd === null) return null;
    const len = Math.trunc(lenRaw);
    // Beyond MAX_TEXT the result would only exhaust memory: NULL, as for any value Weir cannot hold.
    if (len < 0 || pd === '' || len > MAX_TEXT) return null;
    const have = codePointLength(s);
    if (have >= len) return codePointSlice(s, 0, len);
    const fill = Array.from(pd.repeat(Math.ceil((len - have) / codePointLength(pd)))).slice(0, len - have).join('');
    return left ? fill + s : s + fill;
  };
}

const locate = (needle: string, hay: string, from: number): number => {
  if (from < 1) return 0;
  const i = hay.indexOf(needle, from - 1);
  return i < 0 ? 0 : codePointLength(hay.slice(0, i)) + 1;
};

export const STRING_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  LTRIM: { min: 1, max: 1, compile: str1((s) => trimChars(s, ' ', 'LEADING')), type: always('string') },
  RTRIM: { min: 1, max: 1, compile: str1((s) => trimChars(s, ' ', 'TRAILING')), type: always('string') },
  REPLACE: { min: 3, max: 3, compile: strN(([s, a, b]) => s.split(a).join(b)), type: always('string') },
  REPEAT: { min: 2, max: 2, compile: strInts((s, [n]) => (n <= 0 ? '' : s.length * n > MAX_TEXT ? null : s.repeat(n))), type: always('string') },
  REVERSE: { min: 1, max: 1, compile: str1((s) => Array.from(s).reverse().join('')), type: always('string') },
  // Flink: the first character of each run of letters and digits upper-cased, the rest lower-cased.
  INITCAP: { min: 1, max: 1, compile: str1((s) => s.toLowerCase().replace(/(^|[^\p{L}\p{N}])([\p{L}\p{N}])/gu, (_m, a: string, b: string) => a + b.toUpperCase())), type: always('string') },
  LPAD: { min: 3, max: 3, compile: pad(true), type: always('string') },
  RPAD: { min: 3, max: 3, compile: pad(false), type: always('string') },
  // OVERLAY(s PLACING r FROM start [FOR length]); the length defaults to r's. A start outside s is NULL (Flink fails there).
  OVERLAY: {
    min: 3,
    max: 4,
    syntaxOnly: true,
    compile: ([s, r, start, len]) => (row) => {
      const str = toStr(s(row));
      const put = toStr(r(row));
      const at = toNum(start(row));
      const n = len ? toNum(len(row)) : put === null ? null : codePointLength(put);
      if (str === null || put === null || at === null || n === null) return null;
      const from = Math.trunc(at) - 1;
      const size = codePointLength(str);
      if (from < 0 || from > size || n < 0) return null;
      return codePointSlice(str, 0, from) + put + codePointSlice(str, Math.min(size, from + Math.trunc(n)), size);
    },
    type: always('string'),
  },
  LEFT: { min: 2, max: 2, compile: strInts((s, [n]) => (n <= 0 ? '' : codePointSlice(s, 0, n))), type: always('string') },
  RIGHT: { min: 2, max: 2, compile: strInts((s, [n]) => { const len = codePointLength(s); return n <= 0 ? '' : codePointSlice(s, Math.max(0, len - n), len); }), type: always('string') },
  // CONCAT_WS skips NULL arguments; only a NULL separator makes it NULL.
  CONCAT_WS: {
    min: 1,
    max: Infinity,
    compile: ([sep, ...args]: readonly Evaluator[]) => (row) => {
      const sp = toStr(sep(row));
      if (sp === null) return null;
      let out = '';
      let first = true;
      for (let i = 0; i < args.length; i++) {
        const s = toStr(args[i](row));
        if (s === null) continue;
        out += first ? s : sp + s;
        first = false;
      }
      return out;
    },
    type: always('string'),
  },
  POSITION: { min: 2, max: 2, syntaxOnly: true, compile: strN(([needle, hay]) => locate(needle, hay, 1)), type: always('integer') },
  LOCATE: {
    min: 2,
    max: 3,
    compile: ([n, h, p]) => (row) => {
      const needle = toStr(n(row));
      if (needle === null) return null;
      const hay = toStr(h(row));
      if (hay === null) return null;
      const from = p ? toNum(p(row)) : 1;
      return from === null ? null : locate(needle, hay, Math.trunc(from));
    },
    type: always('integer'),
  },
  INSTR: { min: 2, max: 2, compile: strN(([hay, needle]) => locate(needle, hay, 1)), type: always('integer') },
  // Flink splits on the whole separator and keeps empty pieces; an index outside the pieces is NULL.
  SPLIT_INDEX: {
    min: 3,
    max: 3,
    compile: ([a, b, c]) => (row) => {
      const s = toStr(a(row));
      if (s === null) return null;
      const sep = toStr(b(row));
      if (sep === null) return null;
      const i = toNum(c(row));
      if (i === null || i < 0 || s === '') return null;
      const pieces = sep === '' ? s.split(/\s+/).filter(Boolean) : s.split(sep);
      return pieces[Math.trunc(i)] ?? null;
    },
    type: always('string'),
  },
  REGEXP: { min: 2, max: 2, compile: strN(([s, p]) => { const re = regex(p); return re ? re.test(s) : null; }), type: always('boolean') },
  REGEXP_REPLACE: { min: 3, max: 3, compile: strN(([s, p, r]) => { const re = regex(p, 'g'); return re ? s.replace(re, r) : null; }), type: always('string') },
  // Group 0 (the whole match) unless an index is given; no match, or no such group, is NULL.
  REGEXP_EXTRACT: {
    min: 2,
    max: 3,
    compile: ([a, b, c]) => (row) => {
      const s = toStr(a(row));
      if (s === null) return null;
      const p = toStr(b(row));
      if (p === null) return null;
      const idx = c ? toNum(c(row)) : 0;
      if (idx === null || idx < 0) return null;
      const re = regex(p);
      const m = re ? re.exec(s) : null;
      return m ? (m[Math.trunc(idx)] ?? null) : null;
    },
    type: always('string'),
  },
  ASCII: { min: 1, max: 1, compile: str1((s) => (s === '' ? 0 : s.charCodeAt(0))), type: always('integer') },
  CHR: {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const n = toNum(a(row));
      if (n === null) return null;
      return n < 0 ? '' : String.fromCharCode(Math.trunc(n) & 0xff);
    },
    type: always('string'),
  },
  TO_BASE64: { min: 1, max: 1, compile: str1((s) => toBase64(new TextEncoder().encode(s))), type: always('string') },
  FROM_BASE64: { min: 1, max: 1, compile: str1(fromBase64), type: always('string') },
};

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
  }
  return out;
}

function fromBase64(s: string): string | null {
  const clean = s.replace(/=+$/, '');
  if (/[^A-Za-z0-9+/]/.test(clean) || clean.length % 4 === 1) return null;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of clean) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}
