/**
 * dt-sql-parser's grammar does not read a SELECT item that starts with a subquery
 * (`SELECT a, (SELECT MAX(x) FROM t) AS m`), though it reads one inside an expression. The space
 * before such a `(` is rewritten to a unary `+` (same length, so every line:column stays), which
 * the planner reads as the subquery itself (scalarSubquery.ts).
 */
export function markSelectItemSubqueries(sql: string, chars: string[], isCode: (i: number) => boolean): void {
  for (const m of sql.matchAll(/\(\s*SELECT\b/gi)) {
    const open = m.index!;
    if (!isCode(open) || !/\s/.test(sql[open - 1] ?? '')) continue;
    let j = open - 1;
    while (j >= 0 && /\s/.test(sql[j])) j--;
    const before = sql.slice(0, j + 1);
    const startsList = /\bSELECT(\s+DISTINCT)?$/i.test(before);
    if (startsList || (sql[j] === ',' && inSelectList(sql, j, isCode))) chars[open - 1] = '+';
  }
}

/** Whether the comma at `at` separates SELECT items: the nearest clause word at its depth is SELECT. */
function inSelectList(sql: string, at: number, isCode: (i: number) => boolean): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (!isCode(i)) continue;
    const c = sql[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && /[A-Za-z]/.test(c) && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const word = /^[A-Za-z_]+/.exec(sql.slice(i))![0].toUpperCase();
      if (word === 'SELECT') return true;
      if (['FROM', 'WHERE', 'GROUP', 'HAVING', 'ON', 'JOIN', 'BY', 'VALUES', 'IN', 'SET', 'WITH'].includes(word)) return false;
    }
  }
  return false;
}
