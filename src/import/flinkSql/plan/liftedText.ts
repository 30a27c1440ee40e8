/**
 * Text the grammar cannot read where it stands, lifted out by the prepass and read again on its
 * own: the prepass writes a same-length placeholder in its place, and the planner parses the text
 * from a script of the same length that holds only a SELECT keyword before it, so that every token
 * keeps its line and column. Used for OVER calls inside expressions (overLift.ts) and for the
 * values of VALUES rows that are not plain literals (valueCells.ts).
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, find, findAll, parseFlinkSql } from '../../../export/flinkSql/verify/parseTree.ts';

export interface LiftedText {
  /** Offset of the lifted text's first character in the script. */
  at: number;
  /** Offset just past it. */
  end: number;
}

/**
 * The parse of `SELECT <the lifted text> FROM x`, spread over a script as long as `fullText` (the
 * script before any lifting): SELECT at `selectAt`, which must be a run of six blank-able
 * characters before the text, and the text at its own offset (`parenthesise`: in parentheses, on
 * the characters either side of it). Null when the grammar refuses it.
 */
export function parseLifted(fullText: string, selectAt: number, l: LiftedText, parenthesise = false): Tree | null {
  const chars: string[] = fullText.split('').map((c) => (c === '\n' ? c : ' '));
  'SELECT'.split('').forEach((c, k) => (chars[selectAt + k] = c));
  for (let k = l.at; k < l.end; k++) chars[k] = fullText[k];
  if (parenthesise) {
    // In parentheses the grammar reads the text as one expression; the characters either side of a
    // lifted value are its list's `(`, `,` or `)` or blanks, free in this script.
    chars[l.at - 1] = '(';
    chars[l.end] = ')';
  }
  // A FROM after everything: the grammar wants one, and nothing before it moves.
  return parseFlinkSql(`${chars.join('')} FROM x`).tree;
}

/** Writes `name` over [from, to) of `chars`, blanks after it, line breaks kept. */
export function writePlaceholder(chars: string[], from: number, to: number, name: string): void {
  for (let k = from; k < to; k++) if (chars[k] !== '\n') chars[k] = k - from < name.length ? name[k - from] : ' ';
}

/** The one expression of a lifted text read in parentheses (a SELECT item or a VALUES value); null when unread. */
export function liftedExpression(fullText: string, selectAt: number, l: LiftedText): Tree | null {
  const tree = parseLifted(fullText, selectAt, l, true);
  const item = tree ? findAll(tree, 'columnProjectItem')[0] : undefined;
  const e = item ? (childOf(item, 'selectExpressionColumnName') ?? childOf(item, 'selectLiteralColumnName')) : null;
  return e ? (find(e, 'expression') ?? childOf(e, 'columnName')) : null;
}
