/** Reading the small expression shapes the import recognises: columns, calls, intervals, durations. */
import { compileExpr, ExprError } from '../../engine/expr/index.ts';
import type { Span } from './cursor.ts';
import { ImportError } from './errors.ts';
import type { Token } from './lexer.ts';
import { positionOf } from './lexer.ts';

const isName = (t: Token | undefined): boolean => !!t && (t.kind === 'quoted' || t.kind === 'word');
const isOp = (t: Token | undefined, op: string): boolean => !!t && t.kind === 'op' && t.value === op;

export function fail(span: Span | Token, construct: string, message: string): never {
  const t = 'tokens' in span ? span.tokens[0] : span;
  throw new ImportError(t.line, t.column, construct, message);
}

/** `col` → col; anything else → null. */
export function plainColumn(span: Span): string | null {
  return span.tokens.length === 1 && isName(span.tokens[0]) ? span.tokens[0].value : null;
}

/** `q.col` → { q, name }. */
export function qualifiedColumn(span: Span): { q: string; name: string } | null {
  const [a, dot, b] = span.tokens;
  return span.tokens.length === 3 && isName(a) && isOp(dot, '.') && isName(b) ? { q: a.value, name: b.value } : null;
}

/** A sub-span of token indexes [from, to). */
export function slice(span: Span, sql: string, from: number, to: number): Span {
  const tokens = span.tokens.slice(from, to);
  return { tokens, start: tokens[0]?.start ?? span.start, text: tokens.length ? sql.slice(tokens[0].start, tokens[tokens.length - 1].end) : '' };
}

/** Splits at depth-0 occurrences of `sep` (an op like ',' or an upper-cased word like 'AND'). */
export function split(span: Span, sql: string, sep: string): Span[] {
  const out: Span[] = [];
  let depth = 0;
  let from = 0;
  // BETWEEN … AND … keeps its AND.
  let between = 0;
  span.tokens.forEach((t, i) => {
    if (isOp(t, '(')) depth++;
    else if (isOp(t, ')')) depth--;
    else if (depth === 0 && t.kind === 'word' && t.upper === 'BETWEEN') between++;
    else if (depth === 0 && (t.value === sep || (t.kind === 'word' && t.upper === sep))) {
      if (sep === 'AND' && between > 0) {
        between--;
        return;
      }
      out.push(slice(span, sql, from, i));
      from = i + 1;
    }
  });
  out.push(slice(span, sql, from, span.tokens.length));
  return out;
}

/** `NAME(args)` covering the whole span (optionally `NAME(DISTINCT arg)`), else null. */
export function call(span: Span, sql: string): { name: string; quoted: boolean; distinct: boolean; args: Span[] } | null {
  const t = span.tokens;
  if (t.length < 3 || !isName(t[0]) || !isOp(t[1], '(') || !isOp(t[t.length - 1], ')')) return null;
  let depth = 0;
  for (let i = 1; i < t.length - 1; i++) {
    if (isOp(t[i], '(')) depth++;
    else if (isOp(t[i], ')') && --depth === 0) return null;
  }
  const inner = slice(span, sql, 2, t.length - 1);
  const distinct = inner.tokens[0]?.kind === 'word' && inner.tokens[0].upper === 'DISTINCT';
  const body = distinct ? slice(inner, sql, 1, inner.tokens.length) : inner;
  return { name: t[0].kind === 'word' ? t[0].upper : t[0].value, quoted: t[0].kind === 'quoted', distinct, args: body.tokens.length ? split(body, sql, ',') : [] };
}

const UNIT_MS: Record<string, number> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };
const unit = (w: string): number | undefined => UNIT_MS[w.replace(/S$/, '')];

/** `INTERVAL '<n>' UNIT` or `INTERVAL 'd hh:mm:ss.fff' DAY TO SECOND`, in ms. */
export function intervalMs(span: Span, construct: string): number {
  const [kw, lit, u1, to, u2] = span.tokens;
  const bad = () => fail(span, construct, `expected INTERVAL '<amount>' SECOND|MINUTE|HOUR|DAY, found ${span.text}`);
  if (kw?.upper !== 'INTERVAL' || lit?.kind !== 'string' || u1?.kind !== 'word' || unit(u1.upper) === undefined) bad();
  if (span.tokens.length === 3) {
    const v = Number(lit.value);
    if (!Number.isFinite(v)) bad();
    return Math.round(v * unit(u1.upper)!);
  }
  if (span.tokens.length !== 5 || to.upper !== 'TO' || !u2 || unit(u2.upper) === undefined) bad();
  const m = /^(-)?(?:(\d+) )?(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(lit.value.trim());
  if (!m) bad();
  const parts = [m![2], m![3], m![4], m![5]].filter((x) => x !== undefined).map(Number);
  const units = ['DAY', 'HOUR', 'MINUTE', 'SECOND'].slice(['DAY', 'HOUR', 'MINUTE', 'SECOND'].indexOf(u1.upper.replace(/S$/, '')));
  const ms = parts.reduce((acc, v, i) => acc + v * UNIT_MS[units[i]], 0);
  return Math.round(m![1] ? -ms : ms);
}

/** `<col>`, `<col> + INTERVAL …` or `<col> - INTERVAL …` (qualified by `q` when given): the offset in ms. */
export function columnPlusInterval(span: Span, sql: string, construct: string): { column: string; q: string | null; ms: number } {
  const head = span.tokens[0]?.kind === 'word' && isOp(span.tokens[1], '.') ? 3 : 1;
  const col = slice(span, sql, 0, head);
  const q = head === 3 ? qualifiedColumn(col) : null;
  const column = q ? q.name : plainColumn(col);
  if (!column) fail(span, construct, `expected a column plus or minus an INTERVAL, found ${span.text}`);
  if (span.tokens.length === head) return { column, q: q?.q ?? null, ms: 0 };
  const sign = span.tokens[head];
  if (!isOp(sign, '+') && !isOp(sign, '-')) fail(span, construct, `expected + or - INTERVAL after ${col.text}`);
  const ms = intervalMs(slice(span, sql, head + 1, span.tokens.length), construct);
  return { column, q: q?.q ?? null, ms: sign.value === '-' ? -ms : ms };
}

/** A Flink duration setting such as `1000 ms`, `5 s`, `10 min`, `1 h`, `2 d`, in ms. */
export function durationMs(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|min|minute|minutes|h|hour|hours|d|day|days)?\s*$/i.exec(text);
  if (!m) return null;
  const u = (m[2] ?? 'ms').toLowerCase();
  const f = u.startsWith('ms') || u.startsWith('milli') ? 1 : u.startsWith('s') ? 1000 : u.startsWith('min') ? 60_000 : u.startsWith('h') ? 3_600_000 : 86_400_000;
  return Math.round(Number(m[1]) * f);
}

/** The span as a Weir expression, checked by Weir's own parser; its errors point into the script. */
export function weirExpr(span: Span, sql: string, construct: string): string {
  // The export reads inside json fields with JSON_VALUE(`a`, '$.b'); Weir writes that `a`.`b`.
  const text = span.text.replace(/JSON_VALUE\(\s*`((?:[^`]|``)+)`\s*,\s*'\$((?:\.[A-Za-z_][A-Za-z0-9_]*)+)'\s*\)/g, (_m, head: string, path: string) =>
    [`\`${head}\``, ...path.slice(1).split('.').map((p) => `\`${p}\``)].join('.'),
  );
  try {
    compileExpr(text);
    return text;
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    const p = positionOf(sql, span.start + (text === span.text ? e.offset : 0));
    throw new ImportError(p.line, p.column, construct, `${e.detail} — Weir expressions cover Flink's common scalar functions, not every one`);
  }
}
