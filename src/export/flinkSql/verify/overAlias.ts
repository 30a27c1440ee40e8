/**
 * Flink reads `COUNT(*) OVER (…)` in a SELECT list without a name (it calls the column EXPR$n) and
 * `COUNT(*) OVER w cnt` without AS; dt-sql-parser's grammar wants `AS name` after every OVER
 * window. The missing tokens are put into the token stream, not into the text, so every token the
 * script has keeps its offset, line and column for errors and spans.
 */
import { FlinkSqlLexer } from 'dt-sql-parser/dist/lib/flink/FlinkSqlLexer';

/** The name given to an OVER item written without one; selectItems numbers it as Flink does (EXPR$n). */
export const UNNAMED_OVER = 'EXPR$';

const NAME_TYPES = new Set([FlinkSqlLexer.ID_LITERAL, FlinkSqlLexer.STRING_LITERAL]);
/** What may follow a select item: the next item or the end of the list. */
const ITEM_END = new Set([FlinkSqlLexer.COMMA, FlinkSqlLexer.KW_FROM]);

/** The part of an ANTLR token and token buffer this touches (antlr4ng is dt-sql-parser's, not ours). */
export interface Token {
  type: number;
  channel: number;
  text: string | null;
  start: number;
  stop: number;
  tokenIndex: number;
  cloneWithType(type: number): Token;
}
interface TokenBuffer {
  tokens: Token[];
}

/** Adds `AS` (and a name where none is written) after OVER windows of select items; returns how many it named. */
export function nameOverItems(stream: unknown): number {
  const tokens = (stream as TokenBuffer).tokens;
  const next = (i: number): number => {
    let j = i + 1;
    while (j < tokens.length && tokens[j].channel !== 0) j++;
    return j < tokens.length ? j : -1;
  };
  const inserts: { after: number; types: [number, string][] }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== FlinkSqlLexer.KW_OVER) continue;
    let end = next(i);
    if (end < 0) break;
    if (tokens[end].type === FlinkSqlLexer.LR_BRACKET) {
      let depth = 0;
      for (let j = end; j < tokens.length; j++) {
        if (tokens[j].type === FlinkSqlLexer.LR_BRACKET) depth++;
        else if (tokens[j].type === FlinkSqlLexer.RR_BRACKET && --depth === 0) {
          end = j;
          break;
        }
      }
      if (depth !== 0) continue;
    } else if (!NAME_TYPES.has(tokens[end].type)) continue;
    const k = next(end);
    if (k < 0) continue;
    const after = next(k);
    if (NAME_TYPES.has(tokens[k].type) && after >= 0 && ITEM_END.has(tokens[after].type)) {
      inserts.push({ after: end, types: [[FlinkSqlLexer.KW_AS, 'AS']] });
    } else if (ITEM_END.has(tokens[k].type)) {
      inserts.push({ after: end, types: [[FlinkSqlLexer.KW_AS, 'AS'], [FlinkSqlLexer.STRING_LITERAL, `\`${UNNAMED_OVER}\``]] });
    }
  }
  insertTokens(tokens, inserts);
  return inserts.length;
}

/**
 * Puts zero-width tokens after the given ones (indexes into `tokens`, ascending): they point just
 * past the token before them, so every written token keeps its offset, line and column.
 */
export function insertTokens(tokens: Token[], inserts: readonly { after: number; types: readonly (readonly [number, string])[] }[]): void {
  for (const { after, types } of [...inserts].reverse()) {
    const at = tokens[after];
    const made = types.map(([type, text]) => {
      const t = at.cloneWithType(type);
      t.text = text;
      t.start = at.stop + 1;
      t.stop = at.stop;
      return t;
    });
    tokens.splice(after + 1, 0, ...made);
  }
  if (inserts.length) tokens.forEach((t, i) => (t.tokenIndex = i));
}
