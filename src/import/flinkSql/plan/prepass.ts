/**
 * Before the grammar sees a script: read the `-- @weir {…}` annotations, and lift out the few
 * Flink constructs dt-sql-parser's FlinkSQL grammar does not accept, keeping every other
 * character where it was so that line:column in the parse tree still point into the script.
 *   - `agg(…) FILTER (WHERE cond)`: the FILTER clause is blanked and remembered by its offset;
 *   - `TRY_CAST(`: read as CAST (Weir's CAST already yields NULL for a value it cannot convert);
 *   - `MINUS` (Flink's other name for EXCEPT): written UNION, a word of the same length, and
 *     remembered by its offset so that the planner reads it as EXCEPT;
 *   - `TABLE(TUMBLE(…)) [AS] alias`: the grammar reads a window table function without an alias,
 *     so the alias is blanked and remembered by the TVF's offset;
 *   - `TABLE(SESSION(TABLE t [PARTITION BY k, …], …))`: read as a TUMBLE of the same length, the
 *     PARTITION BY blanked, both remembered by the TVF's offset;
 *   - `SUBSTRING(s FROM a FOR n)`: written as its comma form;
 *   - a CREATE TABLE's `PRIMARY KEY (…) NOT ENFORCED` before its WATERMARK or a column (Flink takes
 *     the table's elements in any order, the grammar only with the constraint last): blanked and
 *     remembered by the offset of the statement's CREATE;
 *   - TRIM(… FROM s), EXTRACT(… FROM t), FLOOR/CEIL(t TO unit): see exprSyntax.ts;
 *   - `ARRAY[…]`, `MAP[…]`: written with parentheses, which the grammar reads as calls;
 *   - `f(…) OVER …` inside an expression: see overLift.ts; a VALUES value that is no literal: valueCells.ts.
 * Constructs the grammar rejects and Weir cannot plan are reported by name here, rather than as a
 * bare syntax error further on.
 */
import { rewriteExprSyntax } from './exprSyntax.ts';
import { markSelectItemSubqueries } from './subquerySyntax.ts';
import type { LiftedOver } from './overLift.ts';
import { liftOverCalls } from './overLift.ts';
import { rewriteOffsetFetch } from './offsetFetch.ts';
import type { ValueCell } from './valueCells.ts';
import { liftValueCells } from './valueCells.ts';

/** A `-- @weir {…}` comment: what Weir's export writes beside a statement that SQL cannot say. */
export type Annotation = Record<string, unknown>;

export interface PrepassProblem {
  line: number;
  column: number;
  construct: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface AggregateFilter {
  /** Offset of the FILTER keyword; the aggregate call ends just before it (whitespace aside). */
  at: number;
  /** The condition's text and offset in the script. */
  cond: string;
  condAt: number;
}

export interface WindowTvfText {
  alias: string | null;
  /** Written as SESSION(TABLE t PARTITION BY keys, …). */
  session: { partitionBy: string[] } | null;
}

export interface Prepared {
  /** The script with the lifted constructs blanked: same length, same line breaks. */
  text: string;
  /** The script before the lifts below (every other rewrite applied): where lifted text is read from. */
  unlifted: string;
  /** OVER calls inside expressions, each written as a column name of its own (overLift.ts). */
  overCalls: LiftedOver[];
  /** VALUES values that are not literals, each written as a literal (valueCells.ts). */
  valueCells: ValueCell[];
  /** Rows skipped before a LIMIT (`LIMIT n OFFSET m`, `OFFSET m ROWS FETCH NEXT n ROWS ONLY`), by the LIMIT's offset. */
  limitOffsets: Map<number, number>;
  filters: AggregateFilter[];
  /** Offsets of `CAST` words that were written TRY_CAST. */
  tryCasts: Set<number>;
  /** Offsets of `UNION` words that were written MINUS (EXCEPT). */
  minuses: Set<number>;
  /** Per window TVF (by the offset of its TABLE keyword): the alias and the SESSION form the grammar cannot read. */
  windowTvfs: Map<number, WindowTvfText>;
  /** Primary keys lifted out of a CREATE TABLE's element list, by the offset of its CREATE keyword. */
  tableKeys: Map<number, string[]>;
  /** Offsets of `ts AS expr` left where a list began with `WATERMARK FOR ts AS expr`: a watermark, not a column. */
  liftedWatermarks: Set<number>;
  /** Annotation per line it sits on (1-based); line 0 holds the document annotation, if any. */
  annotations: Map<number, Annotation>;
  problems: PrepassProblem[];
}

export function positionAt(sql: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < sql.length; i++) {
    if (sql.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/**
 * Flink reads a backslash in a string as itself (`'C:\\data'`, `'a\\'`), but dt-sql-parser's lexer
 * takes it as an escape, so that `'a\\'` never ends. The prepass writes each one as this private-use
 * character, and the planner writes it back wherever it reads a string's text.
 */
export const BACKSLASH_STAND = '\uE000';
export const withBackslashes = (s: string): string => (s.includes(BACKSLASH_STAND) ? s.replaceAll(BACKSLASH_STAND, '\\') : s);

/** Offsets of code characters (1) and of characters inside single-quoted strings (2); 0 for quoted names and comments. */
function codeMask(sql: string): Uint8Array {
  const mask = new Uint8Array(sql.length);
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '`' || c === '"') {
      const from = ++i;
      while (i < sql.length) {
        if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      if (c === "'") mask.fill(2, from, i);
      i++;
    } else {
      mask[i] = 1;
      i++;
    }
  }
  return mask;
}

/** Calls the grammar cannot read, and the same-length names they are read under. */
const KEYWORD_CALLS: Record<string, string> = { CHAR_LENGTH: 'WCHARLENGTH', CHARACTER_LENGTH: 'WCHARACTERLENGTH', SQRT: 'WSQT', OCTET_LENGTH: 'WOCTETLENGTH' };
/** The name a call was written with, for one the prepass renamed. */
export const WRITTEN_CALL: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(KEYWORD_CALLS).map(([name, stand]) => [stand, name]));

const UNSUPPORTED_SYNTAX: [RegExp, string, string][] = [
  [/\bMATCH_RECOGNIZE\b/gi, 'MATCH_RECOGNIZE', 'use a process node with keyed state for pattern matching'],
  [/\bTABLE\s*\(\s*(?:TUMBLE|HOP|CUMULATE|SESSION)\s*\(\s*(?:DATA\s*=>\s*)?TABLE\s*\(/gi, 'window TVF over a subquery', 'a window table function reads a table or view by name: CREATE TEMPORARY VIEW v AS SELECT …; then TABLE(TUMBLE(TABLE v, DESCRIPTOR(ts), …))'],
];

export function prepass(sql: string): Prepared {
  const mask = codeMask(sql);
  const chars = sql.split('');
  const filters: AggregateFilter[] = [];
  const tryCasts = new Set<number>();
  const minuses = new Set<number>();
  const problems: PrepassProblem[] = [];
  const isCode = (i: number) => mask[i] === 1;
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
  };
  const at = (offset: number) => positionAt(sql, offset);
  for (let i = 0; i < sql.length; i++) if (mask[i] === 2 && sql[i] === '\\') chars[i] = BACKSLASH_STAND;

  for (const m of sql.matchAll(/\bFILTER\s*\(\s*WHERE\b/gi)) {
    const start = m.index!;
    if (!isCode(start)) continue;
    let depth = 0;
    let end = -1;
    for (let i = sql.indexOf('(', start); i < sql.length; i++) {
      if (!isCode(i)) continue;
      if (sql[i] === '(') depth++;
      else if (sql[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      problems.push({ ...at(start), construct: 'FILTER (WHERE …)', message: 'the FILTER clause has no closing parenthesis', severity: 'error' });
      continue;
    }
    const condAt = start + m[0].length;
    filters.push({ at: start, cond: sql.slice(condAt, end), condAt });
    blank(start, end + 1);
  }
  for (const m of sql.matchAll(/\bTRY_CAST(\s*\()/gi)) {
    if (!isCode(m.index!)) continue;
    blank(m.index!, m.index! + 4);
    tryCasts.add(m.index! + 4);
  }
  for (const m of sql.matchAll(/(?<![.`\w])MINUS\b/gi)) {
    if (!isCode(m.index!)) continue;
    'UNION'.split('').forEach((ch, k) => (chars[m.index! + k] = ch));
    minuses.add(m.index!);
  }
  // Built-ins the grammar lexes as keywords: renamed in place to a same-length name it reads as a
  // call; callName (expr.ts) gives back the name as written.
  for (const [name, stand] of Object.entries(KEYWORD_CALLS)) {
    for (const m of sql.matchAll(new RegExp(`(?<![.\`\\w])${name}(?=\\s*\\()`, 'gi'))) {
      if (!isCode(m.index!)) continue;
      stand.split('').forEach((ch, k) => (chars[m.index! + k] = ch));
    }
  }
  // ARRAY[…] and MAP[…] (value constructors): the grammar reads ARRAY(…) and MAP(…) as calls, and
  // the planner writes a call by either name back as its constructor.
  for (const m of sql.matchAll(/(?<![.`\w])(?:ARRAY|MAP)\s*\[/gi)) {
    if (!isCode(m.index!)) continue;
    const open = m.index! + m[0].length - 1;
    let depth = 0;
    for (let i = open; i < sql.length; i++) {
      if (!isCode(i)) continue;
      if (sql[i] === '[') depth++;
      else if (sql[i] === ']' && --depth === 0) {
        chars[open] = '(';
        chars[i] = ')';
        break;
      }
    }
  }
  // CREATE DATABASE without WITH (…), which the grammar does not read: skipped here with the warning
  // the planner gives one with WITH (a pipeline has one catalog and one database).
  for (const m of sql.matchAll(/\bCREATE\s+DATABASE\b[^;]*/gi)) {
    if (!isCode(m.index!) || /\bWITH\s*\(/i.test(m[0])) continue;
    const head = m[0].replace(/\s+/g, ' ').trim().split(' ').slice(0, 2).join(' ').toUpperCase();
    problems.push({ ...at(m.index!), construct: head, message: `${head} has no effect on a pipeline (one catalog, one database) and is skipped; names qualified with a catalog or database still resolve`, severity: 'warning' });
    blank(m.index!, m.index! + m[0].length + (sql[m.index! + m[0].length] === ';' ? 1 : 0));
  }
  const limitOffsets = rewriteOffsetFetch(sql, chars, isCode, blank, (offset, message) => problems.push({ ...at(offset), construct: 'OFFSET', message, severity: 'error' }));
  const windowTvfs = liftWindowTvfs(sql, chars, isCode, blank);
  const liftedWatermarks = new Set<number>();
  const tableKeys = liftTableElements(sql, isCode, blank, liftedWatermarks);
  // SUBSTRING(s FROM a [FOR n]): the grammar reads only the comma form, written in place.
  for (const m of sql.matchAll(/\bSUBSTRING\s*\(/gi)) {
    if (!isCode(m.index!)) continue;
    const open = m.index! + m[0].length - 1;
    const close = closingParen(sql, open, isCode);
    if (close < 0) continue;
    let depth = 0;
    for (let i = open + 1; i < close; i++) {
      if (!isCode(i)) continue;
      if (sql[i] === '(') depth++;
      else if (sql[i] === ')') depth--;
      else if (depth === 0 && /^(FROM|FOR)\b/i.test(sql.slice(i, i + 5)) && /[\s)`'\w]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 1] ?? '')) {
        const len = /^FROM/i.test(sql.slice(i, i + 4)) ? 4 : 3;
        chars[i] = ',';
        for (let k = 1; k < len; k++) chars[i + k] = ' ';
      }
    }
  }
  markSelectItemSubqueries(sql, chars, isCode);
  for (const p of rewriteExprSyntax(sql, chars, isCode)) problems.push({ ...at(p.offset), construct: p.construct, message: p.message, severity: 'error' });
  const unlifted = chars.join('');
  const overCalls = liftOverCalls(sql, chars, isCode);
  const valueCells = liftValueCells(sql, chars, isCode, { closingParen: (open) => closingParen(sql, open, isCode), items: (open, close) => topLevelItems(sql, open, close, isCode) });
  for (const [re, construct, hint] of UNSUPPORTED_SYNTAX) {
    for (const m of sql.matchAll(re)) {
      if (isCode(m.index!)) problems.push({ ...at(m.index!), construct, message: `not supported: ${hint}`, severity: 'error' });
    }
  }
  return { text: chars.join(''), unlifted, overCalls, valueCells, limitOffsets, filters, tryCasts, minuses, windowTvfs, tableKeys, liftedWatermarks, annotations: readAnnotations(sql, problems), problems };
}

/** Words that may follow a FROM item; anything else after a window TVF is its alias. */
const AFTER_FROM_ITEM = new Set(['JOIN', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'CROSS', 'NATURAL', 'OUTER', 'ON', 'WHERE', 'GROUP', 'HAVING', 'UNION', 'ORDER', 'LIMIT', 'WINDOW', 'EXCEPT', 'INTERSECT', 'MINUS']);

export function closingParen(sql: string, open: number, isCode: (i: number) => boolean): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    if (!isCode(i)) continue;
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The elements of a parenthesised list at its top level: [start, end) offsets, commas excluded. */
function topLevelItems(sql: string, open: number, close: number, isCode: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < close; i++) {
    if (!isCode(i)) continue;
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')') depth--;
    else if (sql[i] === ',' && depth === 0) {
      out.push([from, i]);
      from = i + 1;
    }
  }
  out.push([from, close]);
  return out;
}

const PRIMARY_KEY = /^\s*(?:CONSTRAINT\s+(?:`(?:[^`]|``)+`|\w+)\s+)?PRIMARY\s+KEY\s*\(([^()]*)\)\s*NOT\s+ENFORCED\s*$/i;

/**
 * `PRIMARY KEY (…) NOT ENFORCED` anywhere but last in a CREATE TABLE's list, blanked with its comma.
 * A list that begins with `WATERMARK FOR ts AS expr` (`CREATE TABLE t (WATERMARK …) LIKE base`) has
 * `WATERMARK FOR` blanked, so that the grammar, which wants a column first, reads `ts AS expr`.
 */
function liftTableElements(sql: string, isCode: (i: number) => boolean, blank: (from: number, to: number) => void, watermarks: Set<number>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of sql.matchAll(/\bCREATE\s+(?:TEMPORARY\s+)?TABLE\b/gi)) {
    if (!isCode(m.index!)) continue;
    let open = m.index! + m[0].length;
    while (open < sql.length && !(isCode(open) && (sql[open] === '(' || sql[open] === ';'))) open++;
    if (sql[open] !== '(') continue;
    const close = closingParen(sql, open, isCode);
    if (close < 0) continue;
    const items = topLevelItems(sql, open, close, isCode);
    const wm = /^(\s*)(WATERMARK\s+FOR\s+)(?=\S)/i.exec(sql.slice(items[0][0], items[0][1]));
    if (wm) {
      const from = items[0][0] + wm[1].length;
      blank(from, from + wm[2].length);
      watermarks.add(from + wm[2].length);
    }
    items.slice(0, -1).forEach(([from, to]) => {
      const km = PRIMARY_KEY.exec(sql.slice(from, to));
      if (!km) return;
      out.set(m.index!, km[1].split(',').map((k) => k.trim().replace(/^`|`$/g, '').replace(/``/g, '`')));
      blank(from, to + 1);
    });
  }
  return out;
}

/** The window TVF forms the grammar does not read, rewritten in place (same length) and remembered. */
function liftWindowTvfs(sql: string, chars: string[], isCode: (i: number) => boolean, blank: (from: number, to: number) => void): Map<number, WindowTvfText> {
  const out = new Map<number, WindowTvfText>();
  for (const m of sql.matchAll(/\bTABLE(\s*)\(\s*(TUMBLE|HOP|CUMULATE|SESSION)(\s*)\(/gi)) {
    const start = m.index!;
    if (!isCode(start)) continue;
    const open = start + 5 + m[1].length;
    const close = closingParen(sql, open, isCode);
    if (close < 0) continue;
    let session: WindowTvfText['session'] = null;
    if (m[2].toUpperCase() === 'SESSION') {
      const nameAt = sql.toUpperCase().indexOf('SESSION', open);
      'TUMBLE '.split('').forEach((ch, k) => (chars[nameAt + k] = ch));
      const argsOpen = sql.indexOf('(', nameAt);
      const argsClose = closingParen(sql, argsOpen, isCode);
      const firstArgEnd = (() => {
        let depth = 0;
        for (let i = argsOpen + 1; i < argsClose; i++) {
          if (!isCode(i)) continue;
          if (sql[i] === '(') depth++;
          else if (sql[i] === ')') depth--;
          else if (sql[i] === ',' && depth === 0) return i;
        }
        return argsClose;
      })();
      const first = sql.slice(argsOpen + 1, firstArgEnd);
      const pm = /\bPARTITION\s+BY\b/i.exec(first);
      if (pm) {
        // PARTITION BY k1, k2 runs up to the comma before DESCRIPTOR(…).
        const from = argsOpen + 1 + pm.index;
        const desc = sql.slice(from).search(/,\s*(TIMECOL\s*=>\s*)?DESCRIPTOR\s*\(/i);
        const to = desc < 0 ? firstArgEnd : from + desc;
        const keys = sql.slice(from + pm[0].length, to).split(',').map((k) => k.replace(/[()]/g, '').trim().replace(/^`|`$/g, '')).filter(Boolean);
        session = { partitionBy: keys };
        blank(from, to);
        // The keys' commas are blanked with them; the comma before DESCRIPTOR stays.
      } else session = { partitionBy: [] };
    }
    // An alias after the closing parenthesis: [AS] name, unless the next word continues the FROM clause.
    const rest = sql.slice(close + 1);
    const am = /^(\s*)(AS\s+)?(`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)/i.exec(rest);
    let alias: string | null = null;
    if (am && isCode(close + 1 + am[1].length) && (am[2] || !AFTER_FROM_ITEM.has(am[3].toUpperCase()))) {
      alias = am[3].startsWith('`') ? am[3].slice(1, -1).replace(/``/g, '`') : am[3];
      blank(close + 1 + am[1].length, close + 1 + am[0].length);
    }
    if (alias || session) out.set(start, { alias, session });
  }
  return out;
}

/**
 * `-- @weir {…}` lines. The first one before any statement is the document's (line 0); every other
 * belongs to the statement that starts on the next non-comment line. A malformed one is a warning
 * with its line, never silently skipped.
 */
function readAnnotations(sql: string, problems: PrepassProblem[]): Map<number, Annotation> {
  const out = new Map<number, Annotation>();
  const lines = sql.split('\n');
  let pending: Annotation | null = null;
  let seenStatement = false;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const m = /^--\s*@weir\b(.*)$/.exec(line);
    if (m) {
      const body = m[1].trim();
      try {
        const v = JSON.parse(body) as unknown;
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
        if (!seenStatement && !out.has(0) && ('pipeline' in v || 'settings' in v || 'description' in v)) out.set(0, v as Annotation);
        else pending = v as Annotation;
      } catch (e) {
        problems.push({ line: i + 1, column: raw.indexOf('@weir') + 1, construct: '-- @weir annotation', message: `not a JSON object (${(e as Error).message}); the annotation is ignored`, severity: 'warning' });
      }
      return;
    }
    if (line === '' || line.startsWith('--')) return;
    seenStatement = true;
    if (pending) {
      out.set(i + 1, pending);
      pending = null;
    }
  });
  return out;
}
