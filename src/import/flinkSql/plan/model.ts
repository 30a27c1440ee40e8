/** What the planner builds: relations (a node's output seen from SQL) and the graph of nodes. */
import type { FieldType } from '../../../core/streamInfo.ts';
import type { Collection } from './collectionType.ts';
import type { SqlSpan, Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { firstToken, spanOf } from '../../../export/flinkSql/verify/parseTree.ts';
import { ImportError } from '../errors.ts';

/** One column of a relation: the field that carries it, and the names SQL may qualify it by. */
export interface Col {
  /** The field name in the node's output records. */
  field: string;
  /** The name SQL reads it by. */
  name: string;
  /** Table names or aliases that qualify it (`o` in o.amount). */
  quals: string[];
  type: FieldType | null;
  /** A side's copy of a JOIN … USING key: read only qualified (`o.k`); `*` lists the merged key instead. */
  usingSide?: boolean;
  /** An ARRAY or MAP column's elements, as its CREATE TABLE declares them (for UNNEST). */
  collection?: Collection;
}

export interface Rel {
  /** The node whose output this is. */
  node: string;
  cols: Col[];
  /** The field holding the time attribute (rowtime), if the stream has event time. */
  eventTime: string | null;
  /** Columns declared `AS PROCTIME()`: no field, only an ordering (arrival). */
  procTime: string[];
  /** Updating (a changelog with -U/-D) rather than append-only. */
  updating: boolean;
  /** A source table's declared PRIMARY KEY fields. */
  primaryKey?: string[] | null;
}

export interface PlannedNode {
  id: string;
  kind: string;
  params: Record<string, unknown>;
  /** [input port, node id] in port order. */
  inputs: [string, string][];
  span: SqlSpan;
  label?: string;
  position?: { x: number; y: number };
}

export function fail(at: Tree | SqlSpan | null, construct: string, message: string): never {
  let line = 1;
  let column = 1;
  if (at && 'line' in at) ({ line, column } = at);
  else if (at) {
    const t = firstToken(at);
    if (t) ({ line, column } = { line: t.line, column: t.column + 1 });
  }
  throw new ImportError(line, column, construct, message);
}

/** The nodes of one script, with ids unique across it. */
export class Graph {
  readonly nodes: PlannedNode[] = [];
  private readonly ids = new Set<string>();
  readonly reserved = new Set<string>();

  /** A fresh id: `base` if free, else `base_2`, `base_3`, … */
  id(base: string): string {
    const clean = base.replace(/[^A-Za-z0-9_]/g, '_') || 'node';
    let id = clean;
    for (let i = 2; this.ids.has(id) || this.reserved.has(id); i++) id = `${clean}_${i}`;
    this.ids.add(id);
    return id;
  }

  add(n: Omit<PlannedNode, 'span'> & { at: Tree | SqlSpan }): PlannedNode {
    const { at, ...rest } = n;
    const node: PlannedNode = { ...rest, span: 'line' in at ? at : spanOf(at) };
    this.nodes.push(node);
    return node;
  }

  /** Gives a node another id (a view's last node takes the view's name), keeping its edges. */
  rename(from: string, to: string): void {
    for (const n of this.nodes) {
      if (n.id === from) n.id = to;
      n.inputs = n.inputs.map(([p, i]) => [p, i === from ? to : i]);
    }
    this.ids.delete(from);
    this.ids.add(to);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  claim(id: string): void {
    this.ids.add(id);
  }

  get(id: string): PlannedNode | undefined {
    return this.nodes.find((n) => n.id === id);
  }
}

/** The relation a node outputs, with every column qualified by `qual` (a table or alias name). */
export function requalify(rel: Rel, qual: string | null): Rel {
  return { ...rel, cols: rel.cols.map((c) => ({ ...c, quals: qual ? [qual] : [] })) };
}

export const quoteName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;
