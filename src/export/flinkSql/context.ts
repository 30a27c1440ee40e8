/** State shared while one pipeline is exported: relations by port, warnings, function stubs, names. */
import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import type { FlinkSqlExportOptions } from './options.ts';
import { freshName } from './sqlText.ts';

export interface ExportWarning {
  /** The node the warning is about, or null for the pipeline as a whole. */
  nodeId: string | null;
  message: string;
}

/** A table or view the SQL can select from. */
export interface Relation {
  name: string;
  columns: string[];
  types: Record<string, FieldType>;
  /** The rowtime attribute column, or null when the stream has no event time in SQL. */
  time: string | null;
  changelog: 'append' | 'update';
  uniqueKey: string[] | null;
  /** The node that produced it (for recognising versioned views and the like). */
  node: PlanNode | null;
}

/**
 * A `-- @weir {json}` line above a statement: what Flink SQL cannot carry but the import needs to
 * rebuild the same pipeline — the node id and kind, label and canvas position, source data
 * (inline rows, generator settings, file path), keyBy keys and user code.
 */
export type Annotation = Record<string, unknown>;

export interface ViewDef {
  name: string;
  /** Line comments above the statement, without the leading `-- `. */
  comments: string[];
  annotation?: Annotation;
  /** The SELECT, without the trailing semicolon. */
  query: string;
}

/** A function the user must implement in Java/Scala because the pipeline holds JS code there. */
export interface FunctionStub {
  nodeId: string;
  name: string;
  className: string;
  /** ScalarFunction, TableFunction or AggregateFunction. */
  base: 'ScalarFunction' | 'TableFunction' | 'AggregateFunction';
  /** Comment lines: the signature to implement and what to port. */
  explain: string[];
  /** The pipeline's JS/TS code, quoted as comments for reference. */
  code: string;
}

/** The annotation of a node's own statement: id, kind, label and position, plus `extra`. */
export function nodeAnnotation(node: PlanNode, doc: JobPlan['doc'], extra: Annotation = {}): Annotation {
  const d = doc.nodes.find((n) => n.id === node.id);
  return { node: node.id, kind: node.kind, ...(d?.label !== undefined ? { label: d.label } : {}), ...(d?.position ? { position: d.position } : {}), ...extra };
}

export class ExportContext {
  readonly warnings: ExportWarning[] = [];
  readonly functions: FunctionStub[] = [];
  readonly views: ViewDef[] = [];
  private readonly relations = new Map<string, Relation>();
  private readonly taken = new Set<string>();

  constructor(
    readonly plan: JobPlan,
    readonly options: FlinkSqlExportOptions,
  ) {
    for (const n of plan.nodes) this.taken.add(n.id);
  }

  warn(nodeId: string | null, message: string): void {
    this.warnings.push({ nodeId, message });
  }

  /** A new SQL object name (helper view, function) that clashes with no node id or earlier name. */
  fresh(base: string): string {
    const name = freshName(base, this.taken);
    this.taken.add(name);
    return name;
  }

  setRelation(nodeId: string, port: string, rel: Relation): void {
    this.relations.set(`${nodeId}.${port}`, rel);
  }

  /** The relations feeding a port, in edge order; null for a port fed by something SQL cannot express. */
  inputs(node: PlanNode, port: string): (Relation | null)[] {
    return this.plan.edges.filter((e) => e.to.node === node.id && e.to.port === port).map((e) => this.relations.get(`${e.from.node}.${e.from.port}`) ?? null);
  }

  input(node: PlanNode, port = 'in'): Relation | null {
    return this.inputs(node, port)[0] ?? null;
  }

  node(id: string): PlanNode | undefined {
    return this.plan.nodes.find((n) => n.id === id);
  }
}

/** The relation a node's output port becomes, from its inferred stream. */
export function relationOf(name: string, info: StreamInfo, node: PlanNode | null): Relation | null {
  if (!info.fields) return null;
  const columns = Object.keys(info.fields);
  return {
    name,
    columns,
    types: { ...info.fields },
    time: info.eventTime && columns.includes(info.eventTime) ? info.eventTime : null,
    changelog: info.changelog,
    uniqueKey: info.uniqueKey,
    node,
  };
}
