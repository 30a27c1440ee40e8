/**
 * Words dt-sql-parser's lexer takes as keywords although Flink's parser has no such keyword, so
 * Flink reads them as plain names: `dateTime`, the Nexmark benchmark's time column, is one
 * (DATETIME is a BigQuery-style type and DATETIME_DIFF / DATETIME_TRUNC functions in the grammar,
 * none of them Flink's). Their tokens become names in the token stream; the text is untouched,
 * so offsets, lines and columns stay right. ARRAY_AGG is a keyword of both, but the grammar has no
 * call for it; as a name it parses as the call Flink reads (collectingCalls.ts reads its NULLS clause).
 */
import { FlinkSqlLexer } from 'dt-sql-parser/dist/lib/flink/FlinkSqlLexer';

const NOT_FLINK_KEYWORDS = new Set([FlinkSqlLexer.KW_DATETIME, FlinkSqlLexer.KW_DATETIME_DIFF, FlinkSqlLexer.KW_DATETIME_TRUNC, FlinkSqlLexer.KW_ARRAY_AGG]);

/** Retypes those keyword tokens as names; returns how many it changed. */
export function unreserveWords(stream: unknown): number {
  const tokens = (stream as { tokens: { type: number }[] }).tokens;
  let n = 0;
  for (const t of tokens) {
    if (!NOT_FLINK_KEYWORDS.has(t.type)) continue;
    t.type = FlinkSqlLexer.ID_LITERAL;
    n++;
  }
  return n;
}
