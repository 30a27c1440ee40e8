/**
 * The values of `VALUES (…), (…)` rows that are not plain literals (`CAST(NULL AS STRING)`,
 * `1 + 1`, `UPPER('b')`, `TIMESTAMP '…' + INTERVAL '1' HOUR`): Flink reads any constant
 * expression there, dt-sql-parser's grammar only literals. The prepass writes each as a literal of
 * the same length and the planner reads the expression again by its offset (liftedText.ts), with
 * the VALUES keyword standing for the SELECT keyword in front of it.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';
import type { LiftedText } from './liftedText.ts';
import { liftedExpression, writePlaceholder } from './liftedText.ts';

export interface ValueCell extends LiftedText {
  /** Offset of the VALUES keyword of its list. */
  valuesAt: number;
}

const LITERAL = /^(?:'(?:[^']|'')*'|[-+]?\d+(?:\.\d+)?|NULL|TRUE|FALSE|(?:TIMESTAMP|DATE)\s*'(?:[^']|'')*')$/i;

type Scan = { closingParen(open: number): number; items(open: number, close: number): [number, number][] };

/** Lifts every VALUES value that is not a literal, writing `0` or `NULL` (padded) in its place. */
export function liftValueCells(sql: string, chars: string[], isCode: (i: number) => boolean, scan: Scan): ValueCell[] {
  const out: ValueCell[] = [];
  for (const m of sql.matchAll(/\bVALUES\b/gi)) {
    if (!isCode(m.index!)) continue;
    let i = m.index! + m[0].length;
    for (;;) {
      while (i < sql.length && (/\s/.test(sql[i]) || !isCode(i))) i++;
      if (sql[i] !== '(') break;
      const close = scan.closingParen(i);
      if (close < 0) break;
      for (const [from, to] of scan.items(i, close)) {
        const text = sql.slice(from, to);
        const at = from + (text.length - text.trimStart().length);
        const end = to - (text.length - text.trimEnd().length);
        if (end <= at || LITERAL.test(sql.slice(at, end))) continue;
        writePlaceholder(chars, at, end, end - at >= 4 ? 'NULL' : '0');
        out.push({ at, end, valuesAt: m.index! });
      }
      i = close + 1;
      while (i < sql.length && (/\s/.test(sql[i]) || !isCode(i))) i++;
      if (sql[i] !== ',') break;
      i++;
    }
  }
  return out;
}

/** The expression a lifted value was, read from the script before lifting; null for a value not lifted. */
export function liftedValue(v: Tree, cells: readonly ValueCell[], fullText: string): Tree | null {
  const start = (v as { start?: { start: number } }).start?.start;
  const cell = start === undefined ? undefined : cells.find((c) => c.at === start);
  if (!cell) return null;
  const body = liftedExpression(fullText, cell.valuesAt, cell);
  if (!body) fail(v, 'VALUES', `could not read ${fullText.slice(cell.at, cell.end).replace(/\s+/g, ' ')} as a constant expression`);
  return body!;
}
