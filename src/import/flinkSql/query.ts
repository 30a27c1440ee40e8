/** Parses the SELECT queries of views and INSERTs: the subset the export writes, nothing more. */
import type { Token } from './lexer.ts';
import type { Cursor, Span } from './cursor.ts';
import { stopAt } from './cursor.ts';

export interface SelectItem {
  expr: Span;
  alias: string | null;
}

export type JoinKind = 'inner' | 'left' | 'right' | 'full' | 'cross';

export type FromItem =
  | { kind: 'table'; name: string; alias: string | null; systemTime: Span | null; tok: Token }
  | { kind: 'subquery'; query: Query; alias: string | null; tok: Token }
  | { kind: 'tvf'; fn: string; table: string; time: string; args: Span[]; tok: Token }
  | { kind: 'lateral'; fn: string; args: Span[]; alias: string; columns: string[]; tok: Token }
  | { kind: 'join'; type: JoinKind; left: FromItem; right: FromItem; on: Span | null; tok: Token };

export interface Select {
  kind: 'select';
  hint: Token | null;
  items: SelectItem[];
  from: FromItem;
  where: Span | null;
  groupBy: Span[] | null;
  tok: Token;
}

export interface Union {
  kind: 'union';
  branches: Select[];
  tok: Token;
}

export type Query = Select | Union;

const CLAUSE_WORDS = ['WHERE', 'GROUP', 'JOIN', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'CROSS', 'ON', 'UNION', 'ORDER', 'LIMIT', 'HAVING', 'FOR', 'WINDOW', 'MATCH_RECOGNIZE', 'USING', 'OUTER', 'EXCEPT', 'INTERSECT', 'QUALIFY'];
const AFTER_SELECT = ['GROUP', 'UNION', 'ORDER', 'LIMIT', 'HAVING', 'WINDOW', 'EXCEPT', 'INTERSECT', 'QUALIFY'];
const UNSUPPORTED_CLAUSES: Record<string, string> = {
  HAVING: 'HAVING is not supported: filter the aggregate in a view of its own',
  ORDER: 'ORDER BY on a stream is not supported: use Top-N (ROW_NUMBER() OVER …)',
  LIMIT: 'LIMIT is not supported: use Top-N (ROW_NUMBER() OVER …)',
  WINDOW: 'named WINDOW clauses are not supported',
  EXCEPT: 'EXCEPT is not supported',
  INTERSECT: 'INTERSECT is not supported',
  QUALIFY: 'QUALIFY is not supported: filter ROW_NUMBER() in an outer query',
  MATCH_RECOGNIZE: 'MATCH_RECOGNIZE is not supported',
  USING: 'JOIN … USING is not supported: write ON l.k = r.k',
};

function rejectUnsupported(c: Cursor): void {
  const t = c.peek();
  if (t.kind === 'word' && UNSUPPORTED_CLAUSES[t.upper]) c.fail(t.upper === 'ORDER' ? 'ORDER BY' : t.upper, UNSUPPORTED_CLAUSES[t.upper]);
}

export function parseQuery(c: Cursor): Query {
  const tok = c.peek();
  const branches = [parseSelect(c)];
  while (c.isWord('UNION')) {
    const u = c.next();
    if (!c.acceptWord('ALL')) c.fail('UNION', 'only UNION ALL is supported: UNION removes duplicates, which a pipeline Union does not', u);
    branches.push(parseSelect(c));
  }
  rejectUnsupported(c);
  return branches.length === 1 ? branches[0] : { kind: 'union', branches, tok };
}

function parseSelect(c: Cursor): Select {
  const tok = c.expectWord('SELECT', 'query');
  const hint = c.peek().kind === 'hint' ? c.next() : null;
  if (c.isWord('DISTINCT')) c.fail('SELECT DISTINCT', 'not supported: use a Deduplicate (ROW_NUMBER() … = 1)');
  const items: SelectItem[] = [];
  do {
    if (c.isOp('*') || (c.peek(1).kind === 'op' && c.peek(1).value === '.' && c.isOp('*', 2))) c.fail('SELECT *', 'list the columns: the import needs every column by name');
    const expr = c.span('SELECT list', stopAt(['AS', 'FROM'], [',']));
    const alias = c.acceptWord('AS') ? c.name('SELECT list') : null;
    items.push({ expr, alias });
  } while (c.acceptOp(','));
  c.expectWord('FROM', 'SELECT');
  const from = parseFrom(c);
  const where = c.acceptWord('WHERE') ? c.span('WHERE', stopAt(AFTER_SELECT)) : null;
  let groupBy: Span[] | null = null;
  if (c.acceptWord('GROUP')) {
    c.expectWord('BY', 'GROUP BY');
    groupBy = [];
    do groupBy.push(c.span('GROUP BY', stopAt(AFTER_SELECT, [','])));
    while (c.acceptOp(','));
  }
  rejectUnsupported(c);
  return { kind: 'select', hint, items, from, where, groupBy, tok };
}

function joinKind(c: Cursor): JoinKind | null {
  if (c.acceptWord('JOIN') || c.acceptWord('INNER', 'JOIN')) return 'inner';
  if (c.acceptWord('CROSS', 'JOIN')) return 'cross';
  for (const [w, k] of [['LEFT', 'left'], ['RIGHT', 'right'], ['FULL', 'full']] as const) {
    if (c.acceptWord(w, 'JOIN') || c.acceptWord(w, 'OUTER', 'JOIN')) return k;
  }
  return null;
}

function parseFrom(c: Cursor): FromItem {
  let left = parsePrimary(c);
  for (;;) {
    const tok = c.peek();
    if (c.acceptOp(',')) {
      const right = parsePrimary(c);
      if (right.kind !== 'lateral') c.fail('FROM', 'comma joins are not supported: write JOIN … ON', tok);
      left = { kind: 'join', type: 'cross', left, right, on: null, tok };
      continue;
    }
    const kind = joinKind(c);
    if (!kind) return left;
    const right = parsePrimary(c);
    let on: Span | null = null;
    if (kind !== 'cross') {
      rejectUnsupported(c);
      c.expectWord('ON', 'JOIN');
      on = c.span('JOIN … ON', stopAt(CLAUSE_WORDS.filter((w) => w !== 'ON' && w !== 'FOR')));
    }
    left = { kind: 'join', type: kind, left, right, on, tok };
  }
}

function alias(c: Cursor): string | null {
  if (c.acceptWord('AS')) return c.name('alias');
  const t = c.peek();
  if ((t.kind === 'word' && !CLAUSE_WORDS.includes(t.upper)) || t.kind === 'quoted') return c.name('alias');
  return null;
}

function args(c: Cursor, construct: string): Span[] {
  const out: Span[] = [];
  c.expectOp('(', construct);
  if (!c.isOp(')')) {
    do out.push(c.span(construct, stopAt([], [','])));
    while (c.acceptOp(','));
  }
  c.expectOp(')', construct);
  return out;
}

function parsePrimary(c: Cursor): FromItem {
  const tok = c.peek();
  if (c.acceptOp('(')) {
    const query = parseQuery(c);
    c.expectOp(')', 'subquery');
    return { kind: 'subquery', query, alias: alias(c), tok };
  }
  if (c.acceptWord('LATERAL')) {
    c.expectWord('TABLE', 'LATERAL TABLE');
    c.expectOp('(', 'LATERAL TABLE');
    const fn = c.name('LATERAL TABLE');
    const a = args(c, 'LATERAL TABLE');
    c.expectOp(')', 'LATERAL TABLE');
    c.expectWord('AS', 'LATERAL TABLE');
    const name = c.name('LATERAL TABLE alias');
    const columns: string[] = [];
    c.expectOp('(', 'LATERAL TABLE alias');
    do columns.push(c.name('LATERAL TABLE alias'));
    while (c.acceptOp(','));
    c.expectOp(')', 'LATERAL TABLE alias');
    return { kind: 'lateral', fn, args: a, alias: name, columns, tok };
  }
  if (c.isWord('TABLE') && c.isOp('(', 1)) {
    c.next();
    c.next();
    const fnTok = c.peek();
    const fn = c.name('window table function').toUpperCase();
    if (!['TUMBLE', 'HOP', 'CUMULATE'].includes(fn)) {
      c.fail(`${fn} table function`, fn === 'SESSION' ? 'the SESSION window TVF is not supported: use GROUP BY SESSION(ts, INTERVAL …)' : 'only the TUMBLE, HOP and CUMULATE window functions are supported', fnTok);
    }
    c.expectOp('(', fn);
    c.expectWord('TABLE', fn);
    const table = c.name(fn);
    c.expectOp(',', fn);
    c.expectWord('DESCRIPTOR', fn);
    c.expectOp('(', 'DESCRIPTOR');
    const time = c.name('DESCRIPTOR');
    c.expectOp(')', 'DESCRIPTOR');
    const rest: Span[] = [];
    while (c.acceptOp(',')) rest.push(c.span(fn, stopAt([], [','])));
    c.expectOp(')', fn);
    c.expectOp(')', 'TABLE(…)');
    if (c.isWord('AS')) c.fail(fn, 'an alias on a window table function is not supported');
    return { kind: 'tvf', fn, table, time, args: rest, tok };
  }
  const name = c.name('FROM');
  let systemTime: Span | null = null;
  if (c.acceptWord('FOR')) {
    c.expectWord('SYSTEM_TIME', 'FOR SYSTEM_TIME AS OF');
    c.expectWord('AS', 'FOR SYSTEM_TIME AS OF');
    c.expectWord('OF', 'FOR SYSTEM_TIME AS OF');
    systemTime = c.span('FOR SYSTEM_TIME AS OF', stopAt(['AS', ...CLAUSE_WORDS]));
  }
  return { kind: 'table', name, alias: alias(c), systemTime, tok };
}
