/**
 * Flink reads `INSERT INTO s SELECT ROUND(d), LTRIM(s) FROM t`: unnamed calls in a SELECT list,
 * each column named EXPR$n. dt-sql-parser's grammar reads a one-argument call of a function it does
 * not know by name (ROUND, LTRIM, LISTAGG, FROM_UNIXTIME …) as the column `ROUND` given the alias
 * `(d)`, and the call vanishes. Such an item gets a zero-width `AS` and the unnamed marker in the
 * token stream, as OVER items do (overAlias.ts), so it parses as the call Flink reads.
 *
 * The same item rule rejects such a call after an operator at the item's top level (`a + ROUND(d)`,
 * `'#' || MD5(s) AS h`, `-SQRT(x)`): the grammar's prediction takes `a` for a column with an
 * expression for its alias and then fails. Inside parentheses, a WHERE or a CAST the same call
 * parses. So at the item's top level the name token of every call is retyped as a word the grammar
 * knows as a function's name; its text, offsets and position stay, and the planner reads names by text.
 */
import { FlinkSqlLexer as L } from 'dt-sql-parser/dist/lib/flink/FlinkSqlLexer';
import { UNNAMED_OVER, insertTokens } from './overAlias.ts';
import type { Token } from './overAlias.ts';

/** Tokens that may open a select item, and those that may follow one. */
const ITEM_START = new Set([L.KW_SELECT, L.KW_DISTINCT, L.KW_ALL, L.COMMA]);
const ITEM_END = new Set([L.COMMA, L.KW_FROM, L.SEMICOLON]);
/** Words that may stand before `(` in an item without being a function's name: `SELECT DISTINCT (a)`. */
const NOT_NAMES = new Set([L.KW_DISTINCT, L.KW_ALL, L.KW_NOT, L.KW_EXISTS]);
/** A function's name: an identifier, or a word the lexer takes for a keyword (QUARTER, WEEK). */
const isName = (t: Token): boolean => t.type === L.ID_LITERAL || (!NOT_NAMES.has(t.type) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.text ?? ''));
/** Call names the grammar does not take for a function after an operator: any plain name, and Flink built-ins the lexer has as keywords. */
const UNKNOWN_CALL_NAMES = new Set([L.ID_LITERAL, L.KW_CHAR_LENGTH, L.KW_SQRT, L.KW_QUARTER, L.KW_WEEK]);
/** What they become: a built-in's name the grammar reads only as a call. */
const KNOWN_CALL_NAME = L.KW_UPPER;

/** Names the unnamed `name(…)` items of SELECT lists, and retypes the call names at their top level; returns how many items it named. */
export function nameCallItems(stream: unknown): number {
  const tokens = (stream as { tokens: Token[] }).tokens;
  const code = tokens.map((t, i) => (t.channel === 0 ? i : -1)).filter((i) => i >= 0);
  // Depth of parentheses at which the innermost open SELECT list stands.
  const selectDepth: number[] = [];
  const ends: number[] = [];
  let depth = 0;
  for (let c = 0; c < code.length; c++) {
    const t = tokens[code[c]];
    if (t.type === L.LR_BRACKET) depth++;
    else if (t.type === L.RR_BRACKET) {
      depth--;
      while (selectDepth.length && selectDepth[selectDepth.length - 1] > depth) selectDepth.pop();
    } else if (t.type === L.KW_SELECT) selectDepth.push(depth);
    else if (t.type === L.KW_FROM && selectDepth[selectDepth.length - 1] === depth) selectDepth.pop();
    const inList = selectDepth.length > 0 && selectDepth[selectDepth.length - 1] === depth;
    const before = c > 0 ? tokens[code[c - 1]].type : -1;
    if (inList && UNKNOWN_CALL_NAMES.has(t.type) && before !== L.DOT && tokens[code[c + 1]]?.type === L.LR_BRACKET) t.type = KNOWN_CALL_NAME;
    if (!inList || !isName(t) || c === 0 || !ITEM_START.has(tokens[code[c - 1]].type)) continue;
    if (tokens[code[c + 1]]?.type !== L.LR_BRACKET) continue;
    let d = 0;
    let close = -1;
    for (let k = c + 1; k < code.length; k++) {
      const type = tokens[code[k]].type;
      if (type === L.LR_BRACKET) d++;
      else if (type === L.RR_BRACKET && --d === 0) {
        close = k;
        break;
      }
    }
    const after = close >= 0 ? tokens[code[close + 1]] : undefined;
    if (!after || !ITEM_END.has(after.type)) continue;
    ends.push(code[close]);
  }
  insertTokens(tokens, ends.map((after) => ({ after, types: [[L.KW_AS, 'AS'], [L.STRING_LITERAL, `\`${UNNAMED_OVER}\``]] as const })));
  return ends.length;
}
