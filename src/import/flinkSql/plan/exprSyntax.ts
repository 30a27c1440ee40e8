/**
 * Expression syntax dt-sql-parser's FlinkSQL grammar does not read, rewritten before the parse in
 * place (same length, same line breaks, so every line:column stays right) into call forms it does
 * read; the planner (exprForms.ts) turns them back into Weir's expression forms:
 *   - `TRIM([LEADING|TRAILING|BOTH] [chars] FROM s)` → `TR_L|TR_T|TR_B([chars,] s)`;
 *   - `EXTRACT(unit FROM t)` → `EXTRACT(unit, t)`;
 *   - `FLOOR(t TO unit)`, `CEIL(t TO unit)` → `FLOOR(t, unit)`, `CEIL(t, unit)`;
 *   - `OVERLAY(s PLACING r FROM n [FOR len])` → `OVERLAY(s, r, n [, len])`.
 * The forms it cannot read and Weir cannot carry are named with the nearest form instead.
 */

/** The TRIM side each rewritten name stands for. */
export const TRIM_NAMES: Readonly<Record<string, 'LEADING' | 'TRAILING' | 'BOTH'>> = { TR_L: 'LEADING', TR_T: 'TRAILING', TR_B: 'BOTH' };

export interface ExprSyntaxProblem {
  offset: number;
  construct: string;
  message: string;
}

const REFUSED: [RegExp, string, string][] = [
  [/\bIS\s+NOT\s+JSON\b/gi, 'IS NOT JSON', 'write NOT (s IS JSON)'],
  [/\bTRANSLATE\s*\(/gi, 'TRANSLATE(…)', 'write REPLACE(s, a, b) once per character, or REGEXP_REPLACE'],
];

/** Rewrites `chars` (a copy of `sql`) in place; returns the forms refused. */
export function rewriteExprSyntax(sql: string, chars: string[], isCode: (i: number) => boolean): ExprSyntaxProblem[] {
  const problems: ExprSyntaxProblem[] = [];
  const write = (at: number, text: string) => text.split('').forEach((ch, k) => (chars[at + k] = ch));
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
  };
  for (const m of sql.matchAll(/\bTRIM\s*\(/gi)) {
    if (!isCode(m.index!)) continue;
    const open = m.index! + m[0].length - 1;
    const from = topLevelWord(sql, open, 'FROM', isCode);
    if (from < 0) continue;
    const sideM = /^\s*(LEADING|TRAILING|BOTH)\b/i.exec(sql.slice(open + 1, from));
    const side = sideM ? sideM[1].toUpperCase() : 'BOTH';
    write(m.index!, `TR_${side[0]}`);
    const afterSide = sideM ? open + 1 + sideM[0].length : open + 1;
    if (sideM) blank(afterSide - sideM[1].length, afterSide);
    const hasChars = sql.slice(afterSide, from).trim() !== '';
    blank(from, from + 4);
    if (hasChars) chars[from] = ',';
  }
  for (const m of sql.matchAll(/\bEXTRACT\s*\(/gi)) {
    if (!isCode(m.index!)) continue;
    const from = topLevelWord(sql, m.index! + m[0].length - 1, 'FROM', isCode);
    if (from >= 0) write(from, ',   ');
  }
  for (const m of sql.matchAll(/\b(?:FLOOR|CEIL|CEILING)\s*\(/gi)) {
    if (!isCode(m.index!)) continue;
    const to = topLevelWord(sql, m.index! + m[0].length - 1, 'TO', isCode);
    if (to >= 0) write(to, ', ');
  }
  for (const m of sql.matchAll(/\bOVERLAY\s*\(/gi)) {
    if (!isCode(m.index!)) continue;
    const open = m.index! + m[0].length - 1;
    for (const word of ['PLACING', 'FROM', 'FOR']) {
      const at = topLevelWord(sql, open, word, isCode);
      if (at >= 0) write(at, ','.padEnd(word.length, ' '));
    }
  }
  for (const [re, construct, nearest] of REFUSED) {
    for (const m of sql.matchAll(re)) if (isCode(m.index!)) problems.push({ offset: m.index!, construct, message: `not supported: ${nearest}` });
  }
  return problems;
}

/** Offset of `word` directly inside the parentheses opened at `open` (not nested, not in strings), or -1. */
function topLevelWord(sql: string, open: number, word: string, isCode: (i: number) => boolean): number {
  let depth = 0;
  const re = new RegExp(`^${word}\\b`, 'i');
  for (let i = open; i < sql.length; i++) {
    if (!isCode(i)) continue;
    const c = sql[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return -1;
    else if (depth === 1 && !/[\w$]/.test(sql[i - 1] ?? '') && re.test(sql.slice(i, i + word.length + 1))) return i;
  }
  return -1;
}
