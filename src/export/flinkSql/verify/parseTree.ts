/**
 * The one FlinkSQL grammar: dt-sql-parser's parse tree, and the small helpers that walk it. The
 * export's semantic check and the import's planner both read scripts through these.
 *
 * dt-sql-parser quirk: in expression position a backtick-quoted identifier is lexed as a string
 * constant, so identifiers are recognised by their backticks, not only by the rule that holds them.
 */
import { FlinkSQL } from 'dt-sql-parser';
import * as grammar from 'dt-sql-parser/dist/lib/flink/FlinkSqlParser';
import { FlinkSqlParser } from 'dt-sql-parser/dist/lib/flink/FlinkSqlParser';
import { nameOverItems } from './overAlias.ts';
import { nameCallItems } from './unnamedCalls.ts';
import { unreserveWords } from './unreserved.ts';

export interface TreeToken {
  text?: string;
  line: number;
  /** 0-based. */
  column: number;
  /** Character offsets into the script, inclusive. */
  start: number;
  stop: number;
}

export interface Tree {
  ruleIndex?: number;
  children?: Tree[] | null;
  symbol?: TreeToken;
  start?: TreeToken;
  stop?: TreeToken;
  getText(): string;
}

/** 1-based line and column of the first character and just past the last one. */
export interface SqlSpan {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

const RULES = FlinkSqlParser.ruleNames;
export const ruleOf = (t: Tree): string => (t.ruleIndex === undefined ? '' : RULES[t.ruleIndex]);
export const kids = (t: Tree): Tree[] => t.children ?? [];
export const isQuoted = (s: string): boolean => s.length > 1 && s.startsWith('`') && s.endsWith('`');
export const unquote = (s: string): string => (isQuoted(s) ? s.slice(1, -1).replace(/``/g, '`') : s);
/** The alternative's label, e.g. `ColumnReference` for primaryExpression#columnReference. */
export const altOf = (t: Tree): string => ALTERNATIVES.get((t as { constructor: object }).constructor) ?? '';

// Labels come from the grammar module's export names, not from `constructor.name`: a minified
// bundle (the designer's) renames classes, and the export names are the only names it keeps.
const ALTERNATIVES = new Map<object, string>(Object.entries(grammar).flatMap(([name, value]) => (typeof value === 'function' && name.endsWith('Context') ? [[value as object, name.slice(0, -'Context'.length)]] : [])));

export function find(t: Tree, rule: string): Tree | null {
  if (ruleOf(t) === rule) return t;
  for (const c of kids(t)) {
    const f = find(c, rule);
    if (f) return f;
  }
  return null;
}

export function findAll(t: Tree, rule: string, out: Tree[] = []): Tree[] {
  if (ruleOf(t) === rule) out.push(t);
  for (const c of kids(t)) findAll(c, rule, out);
  return out;
}

/** Matches of `rule` that are not inside another match. */
export function outermost(t: Tree, rule: string, out: Tree[] = []): Tree[] {
  if (ruleOf(t) === rule) out.push(t);
  else for (const c of kids(t)) outermost(c, rule, out);
  return out;
}

/** The direct children with this rule. */
export const childrenOf = (t: Tree, rule: string): Tree[] => kids(t).filter((c) => ruleOf(c) === rule);
export const childOf = (t: Tree, rule: string): Tree | null => kids(t).find((c) => ruleOf(c) === rule) ?? null;

export function terminals(t: Tree, out: TreeToken[] = []): TreeToken[] {
  if (t.symbol) out.push(t.symbol);
  else for (const c of kids(t)) terminals(c, out);
  return out;
}

export function firstToken(t: Tree): TreeToken | null {
  if (t.symbol) return t.symbol;
  for (const c of kids(t)) {
    const f = firstToken(c);
    if (f) return f;
  }
  return null;
}

export function lastToken(t: Tree): TreeToken | null {
  if (t.symbol) return t.symbol;
  const ks = kids(t);
  for (let i = ks.length - 1; i >= 0; i--) {
    const f = lastToken(ks[i]);
    if (f) return f;
  }
  return null;
}

/** The upper-cased keyword terminals directly under `t`. */
export const keywordsOf = (t: Tree): string[] => kids(t).filter((c) => c.symbol).map((c) => (c.symbol!.text ?? '').toUpperCase());

/** The script text a subtree covers, exactly as written. */
export function textOf(sql: string, t: Tree): string {
  const a = firstToken(t);
  const b = lastToken(t);
  return a && b ? sql.slice(a.start, b.stop + 1) : '';
}

/** Where a subtree sits in the script. */
export function spanOf(t: Tree): SqlSpan {
  const a = firstToken(t);
  const b = lastToken(t) ?? a;
  if (!a || !b) return { line: 1, column: 1, endLine: 1, endColumn: 1 };
  const text = b.text ?? '';
  const lines = text.split('\n');
  const endLine = b.line + lines.length - 1;
  const endColumn = lines.length > 1 ? lines[lines.length - 1].length + 1 : b.column + 1 + text.length;
  return { line: a.line, column: a.column + 1, endLine, endColumn };
}

export interface SyntaxProblem {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

type Listener = Parameters<FlinkSQL['createParser']>[1];

/**
 * dt-sql-parser's FlinkSQL without ANTLR's console listener. To word an error's "expecting …" the
 * library parses the statement again with a parser of its own, which keeps ANTLR's default
 * listener and prints every syntax error to the console (a terminal under `weir import`, the
 * browser's console in the designer) on top of the message Weir gives with its position.
 */
export class QuietFlinkSQL extends FlinkSQL {
  override createLexer(input: string, errorListener?: Listener) {
    const lexer = super.createLexer(input, errorListener);
    if (!errorListener) lexer.removeErrorListeners();
    return lexer;
  }

  override createParser(input: string, errorListener?: Listener) {
    const parser = super.createParser(input, errorListener);
    if (!errorListener) parser.removeErrorListeners();
    unreserveWords(parser.tokenStream);
    nameOverItems(parser.tokenStream);
    nameCallItems(parser.tokenStream);
    return parser;
  }
}

let shared: FlinkSQL | null = null;
/** The one parser instance the planner and the checks share (building one costs about a millisecond). */
export const flinkSqlParser = (): FlinkSQL => (shared ??= new QuietFlinkSQL());

/** Validates and parses with dt-sql-parser's FlinkSQL; the tree is null when the script has syntax errors. */
export function parseFlinkSql(sql: string, parser: FlinkSQL = flinkSqlParser()): { errors: SyntaxProblem[]; tree: Tree | null } {
  // One parse; only a script with errors is validated again, statement by statement, to report them all.
  let failed = false;
  const tree = parser.parse(sql, () => (failed = true)) as unknown as Tree;
  if (!failed) return { errors: [], tree };
  const errors = parser.validate(sql).map((e) => ({ line: e.startLine, column: e.startColumn, endLine: e.endLine, endColumn: e.endColumn, message: e.message }));
  return { errors, tree: null };
}
