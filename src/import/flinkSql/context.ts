/** What the import knows while it turns statements into nodes. */
import type { Token } from './lexer.ts';
import type { Span } from './cursor.ts';
import type { FromItem, Select } from './query.ts';
import { ImportError } from './errors.ts';
import { plainColumn, qualifiedColumn } from './exprs.ts';

export type Annotation = Record<string, unknown>;

/** A table or view the SQL defined: its columns and the node that produces it. */
export interface Relation {
  name: string;
  columns: string[];
  /** The pipeline node whose output this is (a helper view stands for its input's node). */
  node: string;
}

export interface ImportedNode {
  id: string;
  kind: string;
  params: Record<string, unknown>;
  /** Input port → relation names, in order. */
  inputs: [string, string][];
  annotation: Annotation | null;
  /** A helper view of the export (temporal-join versions): it stands for its input and gets no node. */
  helperOf?: string;
}

export interface ImportWarning {
  line: number;
  message: string;
}

export class ImportContext {
  readonly relations = new Map<string, Relation>();
  readonly functions = new Map<string, string>();
  readonly warnings: ImportWarning[] = [];
  /** table.exec.state.ttl, for joins without a STATE_TTL hint. */
  globalTtlMs: number | null = null;
  /** The script carries the export's document annotation, which wins over SETs that only approximate it. */
  annotated = false;

  constructor(readonly sql: string) {}

  relation(name: string, at: Token | Span, construct: string): Relation {
    const r = this.relations.get(name);
    if (!r) fail(at, construct, `\`${name}\` is not a table or view defined above`);
    return r;
  }

  warn(at: Token, message: string): void {
    this.warnings.push({ line: at.line, message });
  }
}

export function fail(at: Token | Span, construct: string, message: string): never {
  const t = 'tokens' in at ? at.tokens[0] : at;
  throw new ImportError(t.line, t.column, construct, message);
}

/** The output name of a select item: its alias, else the column it reads. */
export function itemName(item: { expr: Span; alias: string | null }): string | null {
  return item.alias ?? plainColumn(item.expr) ?? qualifiedColumn(item.expr)?.name ?? null;
}

/** Items that are bare columns, each keeping its name; null when one is not. */
export function plainItems(s: Select): string[] | null {
  const out: string[] = [];
  for (const it of s.items) {
    const c = plainColumn(it.expr);
    if (c === null || (it.alias !== null && it.alias !== c)) return null;
    out.push(c);
  }
  return out;
}

/** The FROM of a single-input query: a table or view without alias, join or time travel. */
export function singleTable(cx: ImportContext, from: FromItem, construct: string): Relation {
  if (from.kind !== 'table' || from.systemTime) fail(from.tok, construct, 'expected one table or view here');
  return cx.relation(from.name, from.tok, construct);
}

/** The select list must be exactly these columns, in this order. */
export function expectColumns(s: Select, expected: readonly string[], construct: string): void {
  const got = plainItems(s);
  if (!got || got.length !== expected.length || got.some((c, i) => c !== expected[i])) {
    fail(s.tok, construct, `the SELECT list must be the columns (${expected.join(', ')}) in this order, as the node passes every column through`);
  }
}
