/** A prepass rewrite (prepass.ts): the row-count forms of SQL that dt-sql-parser's grammar does not read. */

/**
 * `LIMIT n OFFSET m`, `OFFSET m ROW[S] FETCH FIRST|NEXT n ROW[S] ONLY` and `FETCH FIRST n ROWS ONLY`:
 * the grammar reads only `LIMIT n`, so each is written as that (same length) and `m` remembered by
 * the LIMIT's offset. An OFFSET without a count has no streaming plan in Flink and is refused.
 */
export function rewriteOffsetFetch(sql: string, chars: string[], isCode: (i: number) => boolean, blank: (from: number, to: number) => void, refuse: (offset: number, message: string) => void): Map<number, number> {
  const out = new Map<number, number>();
  const writeLimit = (at: number, end: number, n: string) => {
    blank(at, end);
    `LIMIT ${n}`.split('').forEach((ch, k) => (chars[at + k] = ch));
  };
  const FETCH = /^FETCH\s+(?:FIRST|NEXT)\s+(\d+)\s+ROWS?\s+ONLY\b/i;
  for (const m of sql.matchAll(/\b(LIMIT\s+(\d+)\s+)?OFFSET\s+(\d+)(\s+ROWS?\b)?/gi)) {
    if (!isCode(m.index!)) continue;
    const end = m.index! + m[0].length;
    if (m[1]) {
      out.set(m.index!, Number(m[3]));
      blank(m.index! + m[1].length, end);
      continue;
    }
    const rest = sql.slice(end).replace(/^\s+/, '');
    const fetch = FETCH.exec(rest);
    if (!fetch) {
      refuse(m.index!, 'OFFSET without a row count has no streaming plan in Flink; write LIMIT n OFFSET m or OFFSET m ROWS FETCH NEXT n ROWS ONLY');
      continue;
    }
    out.set(m.index!, Number(m[3]));
    writeLimit(m.index!, end + (sql.length - end - rest.length) + fetch[0].length, fetch[1]);
  }
  for (const m of sql.matchAll(/\bFETCH\s+(?:FIRST|NEXT)\s+(\d+)\s+ROWS?\s+ONLY\b/gi)) {
    if (isCode(m.index!) && chars[m.index!] === sql[m.index!]) writeLimit(m.index!, m.index! + m[0].length, m[1]);
  }
  return out;
}
