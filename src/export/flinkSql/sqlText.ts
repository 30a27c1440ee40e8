/** Small text helpers shared by every part of the Flink SQL export. */
import type { FieldType } from '../../core/streamInfo.ts';
import { quoteIdent, quoteString } from '../../expr/sql.ts';

export { quoteIdent as ident, quoteString as str };

/** Flink type of a Weir field type. Timestamps are TIMESTAMP_LTZ(3): an instant, like Weir's epoch ms. */
export function sqlType(t: FieldType): string {
  switch (t) {
    case 'string':
    case 'json':
      return 'STRING';
    case 'number':
      return 'DOUBLE';
    case 'integer':
      return 'BIGINT';
    case 'boolean':
      return 'BOOLEAN';
    case 'timestamp':
      return 'TIMESTAMP_LTZ(3)';
  }
}

export const TIMESTAMP_TYPE = 'TIMESTAMP_LTZ(3)';

/** `a`, `b`, `c` */
export const identList = (names: readonly string[]): string => names.map(quoteIdent).join(', ');

/** `q`.`a`, `q`.`b` — `q` is an unquoted table alias of our own (l, r, i, t). */
export const qualifiedList = (alias: string, names: readonly string[]): string => names.map((n) => `${alias}.${quoteIdent(n)}`).join(', ');

const UNITS: [string, number][] = [
  ['DAY', 86_400_000],
  ['HOUR', 3_600_000],
  ['MINUTE', 60_000],
  ['SECOND', 1000],
];

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * A positive duration as an interval literal Flink and dt-sql-parser both accept. Flink's parser
 * (Calcite) limits a single-unit literal to two leading digits (`INTERVAL '600' SECOND` fails with
 * "exceeds precision of SECOND(2)") and dt-sql-parser rejects the `SECOND(3)` precision suffix,
 * so: the largest whole unit below 100, else fractional seconds below 100, else DAY TO SECOND.
 */
export function interval(ms: number): string {
  const v = Math.abs(Math.round(ms));
  for (const [unit, size] of UNITS) {
    if (v % size === 0 && v / size < 100) return `INTERVAL '${v / size}' ${unit}`;
  }
  if (v < 100_000) return `INTERVAL '${Math.floor(v / 1000)}.${pad(v % 1000, 3)}' SECOND`;
  const days = Math.floor(v / 86_400_000);
  const rest = v % 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  const m = Math.floor((rest % 3_600_000) / 60_000);
  const s = Math.floor((rest % 60_000) / 1000);
  const frac = rest % 1000 ? `.${pad(rest % 1000, 3)}` : '';
  return `INTERVAL '${days} ${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${frac}' DAY TO SECOND`;
}

/** `expr + INTERVAL …`, `expr - INTERVAL …`, or `expr` alone for 0. */
export function plusInterval(expr: string, ms: number): string {
  if (ms === 0) return expr;
  return `${expr} ${ms < 0 ? '-' : '+'} ${interval(ms)}`;
}

/** A duration as Flink configuration text: `1000 ms`. */
export const durationText = (ms: number): string => `${Math.round(ms)} ms`;

/** Each line of `text` as an SQL line comment; never lets user text end the comment early. */
export function commentLines(text: string): string[] {
  return text.split(/\r?\n/).flatMap((l) => wrap(l.replace(/\r/g, ''), 100).map((w) => `--${w.length ? ' ' : ''}${w}`.trimEnd()));
}

/** Breaks a long line at spaces; continuation lines keep the line's indentation plus two spaces. */
function wrap(line: string, width: number): string[] {
  const indent = (/^\s*/.exec(line)?.[0] ?? '') + '  ';
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    if (cut <= indent.length) break;
    out.push(rest.slice(0, cut));
    rest = indent + rest.slice(cut + 1);
  }
  out.push(rest);
  return out;
}

/** `orders_by_city` → `OrdersByCity`, for the Java class names of function stubs. */
export function pascalCase(s: string): string {
  const parts = s.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const out = parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('');
  return /^[A-Za-z]/.test(out) ? out : `Fn${out}`;
}

/** A name not in `taken`: `base`, then `base_2`, `base_3`, … */
export function freshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let i = 2;
  while (taken.has(`${base}_${i}`)) i++;
  return `${base}_${i}`;
}
