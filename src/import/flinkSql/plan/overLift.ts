/**
 * `f(…) OVER …` inside an expression (`CAST(SUM(x) OVER w AS BIGINT)`, `x - LAG(x) OVER w`,
 * `ROUND(AVG(x) OVER (…), 2)`). dt-sql-parser's grammar reads an OVER call only as a whole SELECT
 * item, so the prepass writes each such call as a column name of its own (same length, blanks
 * after it), and the planner reads the call again from a script of the same length that holds only
 * the enclosing SELECT keyword and the call, so that every token keeps its line and column. The
 * over node then outputs the call's value under that column name, and the expression around it
 * reads it as any other column, which is what Flink's planner does with an OVER call (a window
 * aggregate below a Calc).
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { findAll } from '../../../export/flinkSql/verify/parseTree.ts';
import type { LiftedText } from './liftedText.ts';
import { parseLifted, writePlaceholder } from './liftedText.ts';
import { fail } from './model.ts';
import { closingParen } from './prepass.ts';

export interface LiftedOver extends LiftedText {
  /** The column name written in its place. */
  name: string;
  /** The call as the grammar would read it (the prepass's other rewrites applied). */
  text: string;
}

const RANKING = /^(ROW_NUMBER|RANK|DENSE_RANK)$/i;
/** Words after which a call starts a whole SELECT item. */
const ITEM_START = /^(SELECT|DISTINCT|ALL)$/i;

/**
 * Lifts the OVER calls that are not a whole SELECT item, writing their placeholder names into
 * `chars`. Ranking calls stay where they are: they are only ever whole items (Top-N, dedup).
 */
export function liftOverCalls(sql: string, chars: string[], isCode: (i: number) => boolean): LiftedOver[] {
  const out: LiftedOver[] = [];
  const back = (i: number) => {
    while (i >= 0 && (/\s/.test(sql[i]) || !isCode(i))) i--;
    return i;
  };
  const ahead = (i: number) => {
    while (i < sql.length && (/\s/.test(sql[i]) || !isCode(i))) i++;
    return i;
  };
  for (const m of sql.matchAll(/\bOVER\b/gi)) {
    const over = m.index!;
    if (!isCode(over)) continue;
    let i = back(over - 1);
    if (sql[i] !== ')') continue;
    for (let depth = 0; i >= 0; i--) {
      if (!isCode(i)) continue;
      if (sql[i] === ')') depth++;
      else if (sql[i] === '(' && --depth === 0) break;
    }
    const nameEnd = back(i - 1) + 1;
    let start = nameEnd;
    while (start > 0 && /[\w$]/.test(sql[start - 1])) start--;
    if (start === nameEnd || RANKING.test(sql.slice(start, nameEnd))) continue;
    let end = ahead(over + 4);
    if (sql[end] === '(') end = closingParen(sql, end, isCode) + 1;
    else while (end < sql.length && /[\w`]/.test(sql[end])) end++;
    if (end <= 0 || isWholeItem(sql, start, end, back, ahead)) continue;
    const name = `w_over_${out.length + 1}`;
    if (name.length > end - start) continue;
    const text = chars.slice(start, end).join('');
    writePlaceholder(chars, start, end, name);
    out.push({ at: start, end, name, text });
  }
  return out;
}

function isWholeItem(sql: string, start: number, end: number, back: (i: number) => number, ahead: (i: number) => number): boolean {
  const b = back(start - 1);
  let wordStart = b + 1;
  while (wordStart > 0 && /\w/.test(sql[wordStart - 1])) wordStart--;
  const startsItem = sql[b] === ',' || ITEM_START.test(sql.slice(wordStart, b + 1));
  if (!startsItem) return false;
  const a = ahead(end);
  if (a >= sql.length || /[,;)]/.test(sql[a])) return true;
  const word = /^(`(?:[^`]|``)+`|\w+)/.exec(sql.slice(a));
  if (!word) return false;
  if (/^(AS|FROM)$/i.test(word[1])) return true;
  // A bare alias is followed by the next item, FROM, or the end of the query.
  const next = ahead(a + word[1].length);
  return next >= sql.length || /[,;)]/.test(sql[next]) || /^FROM\b/i.test(sql.slice(next, next + 5));
}

/** The lifted calls whose placeholder stands inside this SELECT list. */
export function liftedIn(selectClause: Tree, lifted: readonly LiftedOver[]): LiftedOver[] {
  if (!lifted.length) return [];
  const from = selectClause.start?.start ?? -1;
  const to = selectClause.stop?.stop ?? -1;
  return lifted.filter((l) => l.at >= from && l.at <= to);
}

/** The call's `overWindowItem` tree, read from the script before lifting (liftedText.ts). */
export function overCallTree(fullText: string, selectAt: number, l: LiftedOver, at: Tree): Tree {
  const tree = parseLifted(fullText, selectAt, l);
  const item = tree ? findAll(tree, 'overWindowItem')[0] : undefined;
  if (!item) fail(at, 'OVER call inside an expression', `could not read ${l.text.replace(/\s+/g, ' ').trim()} as agg(…) OVER (PARTITION BY … ORDER BY …)`);
  return item!;
}
