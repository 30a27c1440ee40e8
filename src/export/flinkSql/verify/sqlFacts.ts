/**
 * Reads, from dt-sql-parser's FlinkSQL parse tree, what each statement defines and references:
 * tables, views, functions, columns, aliases. The semantic check resolves these names.
 *
 * dt-sql-parser quirk: in expression position a backtick-quoted identifier is lexed as a string
 * constant, so identifiers are recognised by their backticks, not by the rule that holds them.
 */
import type { FlinkSQL } from 'dt-sql-parser';
import type { Tree } from './parseTree.ts';
import { find, findAll, flinkSqlParser, kids, outermost, ruleOf, unquote } from './parseTree.ts';

export interface NameRef {
  name: string;
  /** The table alias before the dot (`l` in l.`a`), or null. */
  qualifier: string | null;
  line: number;
  column: number;
}

export type StatementKind = 'createTable' | 'createView' | 'createFunction' | 'insert' | 'other';

export interface StatementFacts {
  kind: StatementKind;
  line: number;
  /** The table, view or function it creates. */
  defines: string | null;
  /** CREATE TABLE: declared columns. CREATE VIEW: the outer SELECT's column names (null for an unnamed expression). */
  columns: (string | null)[];
  tableRefs: NameRef[];
  functionRefs: NameRef[];
  columnRefs: NameRef[];
  /** Names defined by `AS x` on select items and window items. */
  columnAliases: Set<string>;
  /** Table aliases: the table they stand for, or the column list of a LATERAL TABLE alias. */
  tableAliases: Map<string, { table: string | null; columns: string[] | null }>;
  usesWindowTvf: boolean;
  /** INSERT: the target table. */
  target: string | null;
}

/** Names of the outer SELECT's items, in order. */
function selectColumns(t: Tree): (string | null)[] {
  const list = find(t, 'selectList');
  if (!list) return [];
  return kids(list)
    .filter((c) => ruleOf(c) === 'columnProjectItem')
    .map((item) => {
      const alias = find(item, 'columnAlias');
      if (alias) return unquote(find(alias, 'identifier')!.getText());
      const window = find(item, 'overWindowItem');
      if (window) {
        const id = kids(window).filter((c) => ruleOf(c) === 'identifier').pop();
        return id ? unquote(id.getText()) : null;
      }
      const literal = find(item, 'selectLiteralColumnName');
      if (!literal) return null;
      const ids = findAll(literal, 'identifier');
      return ids.length ? unquote(ids[ids.length - 1].getText()) : null;
    });
}

function emptyFacts(kind: StatementKind, line: number): StatementFacts {
  return { kind, line, defines: null, columns: [], tableRefs: [], functionRefs: [], columnRefs: [], columnAliases: new Set(), tableAliases: new Map(), usesWindowTvf: false, target: null };
}

/** Walks one statement, classifying every backtick-quoted name by the rules around it. */
function collect(root: Tree, facts: StatementFacts): void {
  const terminals: { text: string; line: number; column: number; chain: string[] }[] = [];
  const walk = (t: Tree, chain: string[]): void => {
    if (t.symbol) {
      terminals.push({ text: t.symbol.text ?? '', line: t.symbol.line, column: t.symbol.column + 1, chain });
      return;
    }
    const rule = ruleOf(t);
    if (rule === 'windowTVFClause') facts.usesWindowTvf = true;
    if (rule === 'tableReference') {
      const alias = kids(t).find((c) => ruleOf(c) === 'tableAlias');
      if (alias) {
        const ids = kids(alias).filter((c) => ruleOf(c) === 'identifier');
        const list = find(alias, 'identifierList');
        const path = find(t, 'tablePath');
        facts.tableAliases.set(unquote(ids[0].getText()), {
          table: path ? unquote(path.getText()) : null,
          columns: list ? findAll(list, 'identifier').map((i) => unquote(i.getText())) : null,
        });
      }
    }
    for (const c of kids(t)) walk(c, [...chain, rule]);
  };
  walk(root, []);
  terminals.forEach((tok, i) => {
    if (!tok.text.startsWith('`')) return;
    const ref: NameRef = { name: unquote(tok.text), qualifier: null, line: tok.line, column: tok.column };
    const has = (r: string) => tok.chain.includes(r);
    const owner = [...tok.chain].reverse().find((r) => !r.endsWith('dentifier'));
    if (has('tablePathCreate') || has('viewPathCreate') || has('functionNameCreate')) facts.defines = ref.name;
    else if (has('columnNameCreate')) facts.columns.push(ref.name);
    else if (has('tablePath') || (has('timeAttrColumn') && has('windowTVFParam'))) {
      if (facts.kind === 'insert' && facts.target === null) facts.target = ref.name;
      else facts.tableRefs.push(ref);
    } else if (has('functionNameWithParams') || has('functionName')) facts.functionRefs.push(ref);
    else if (has('columnAlias') || owner === 'overWindowItem') facts.columnAliases.add(ref.name);
    else if (has('tableAlias')) {
      /* alias names and LATERAL column lists were read with their tableReference */
    } else {
      if (terminals[i - 1]?.text === '.' && terminals[i - 2]) ref.qualifier = unquote(terminals[i - 2].text);
      facts.columnRefs.push(ref);
    }
  });
}

function statementFacts(stmt: Tree): StatementFacts[] {
  const line = (t: Tree): number => {
    let x: Tree | undefined = t;
    while (x && !x.symbol) x = kids(x)[0];
    return x?.symbol?.line ?? 0;
  };
  const inserts = findAll(stmt, 'insertSimpleStatement');
  if (inserts.length) {
    return inserts.map((ins) => {
      const f = emptyFacts('insert', line(ins));
      collect(ins, f);
      f.columns = selectColumns(ins);
      return f;
    });
  }
  const kind: StatementKind = find(stmt, 'simpleCreateTable') ? 'createTable' : find(stmt, 'createView') ? 'createView' : find(stmt, 'createFunction') ? 'createFunction' : 'other';
  const f = emptyFacts(kind, line(stmt));
  collect(stmt, f);
  if (kind === 'createView') f.columns = selectColumns(stmt);
  return [f];
}

export interface ParsedScript {
  errors: { line: number; column: number; message: string }[];
  statements: StatementFacts[];
}

/** Validates with dt-sql-parser's FlinkSQL and, when the script parses, lists each statement's names. */
export function readScript(sql: string, parser: FlinkSQL = flinkSqlParser()): ParsedScript {
  const errors = parser.validate(sql).map((e) => ({ line: e.startLine, column: e.startColumn, message: e.message }));
  if (errors.length) return { errors, statements: [] };
  const tree = parser.parse(sql) as unknown as Tree;
  return { errors, statements: outermost(tree, 'sqlStatement').flatMap(statementFacts) };
}
