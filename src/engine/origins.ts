import type { JobPlan } from '../pipeline/plan.ts';
import { udfSites } from '../pipeline/udfSites.ts';
import { originLine, originSlot } from '../core/origin.ts';

/** Where one record was read: its source node, that source's input (a file name) and the line. */
export interface RecordOrigin {
  source: string;
  file?: string;
  line: number;
}

/**
 * Operators whose output record is made from one input record alone (see core/origin.ts): a
 * record after them still has its source line. Everything else combines records.
 */
const ONE_TO_ONE = new Set(['map', 'filter', 'flatMap', 'project', 'keyBy', 'union', 'broadcastProcess']);

/**
 * The source lines of one job's records, for messages: which source each slot is, which file it
 * reads, and, for a record that carries no line, why it has none. Exists only for pipelines with
 * user code: their sources stamp each record with its line (Element.at).
 */
export class Origins {
  private readonly slots: string[];
  private readonly nodes: Map<string, { kind: string; inputs: string[] }>;

  /** `files`: the name of each source's input, by source id (absent: named by the source alone). */
  constructor(
    plan: Pick<JobPlan, 'nodes' | 'edges'>,
    private readonly files: Readonly<Record<string, string>>,
  ) {
    this.slots = plan.nodes.filter((n) => n.isSource).map((n) => n.id);
    this.nodes = new Map(plan.nodes.map((n) => [n.id, { kind: n.kind, inputs: plan.edges.filter((e) => e.to.node === n.id).map((e) => e.from.node) }]));
  }

  /** The slot a source stamps on its records (its index among the plan's sources). */
  slotOf(sourceId: string): number {
    return this.slots.indexOf(sourceId);
  }

  where(at: number | undefined): RecordOrigin | null {
    if (at === undefined) return null;
    const source = this.slots[originSlot(at)];
    if (source === undefined) return null;
    const file = this.files[source];
    return { source, line: originLine(at), ...(file !== undefined ? { file } : {}) };
  }

  /**
   * For an error message about a record that reached node `nodeId`: "that record came from
   * orders.jsonl:3 (source "visits")", or why it has no single source line.
   */
  sentence(at: number | undefined, nodeId: string): string {
    const o = this.where(at);
    if (o) return `that record came from ${o.file ?? `the input of source "${o.source}"`}:${o.line} (source "${o.source}")`;
    const combiner = this.combinerAbove(nodeId);
    if (combiner) return `that record has no single source line: it derives from many input records (it comes out of ${combiner.kind} "${combiner.id}")`;
    return 'that record has no source line (it was not read from a line of a file)';
  }

  /** The nearest node upstream of `nodeId` that makes its records out of many (an aggregate, a join, a window). */
  private combinerAbove(nodeId: string): { id: string; kind: string } | null {
    const seen = new Set<string>();
    const queue = [...(this.nodes.get(nodeId)?.inputs ?? [])];
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const n = this.nodes.get(id);
      if (!n || this.slots.includes(id)) continue;
      if (!ONE_TO_ONE.has(n.kind)) return { id, kind: n.kind };
      queue.push(...n.inputs);
    }
    return null;
  }
}

const cache = new WeakMap<object, Origins | null>();

/**
 * The job's Origins, or null when its records carry no lines: only pipelines with user code pay
 * for them (their code's errors and the watchdog name the record's line). One per plan.
 */
export function jobOrigins(plan: Pick<JobPlan, 'nodes' | 'edges'>, files: () => Readonly<Record<string, string>>): Origins | null {
  let o = cache.get(plan);
  if (o === undefined) {
    o = udfSites(plan).length > 0 ? new Origins(plan, files()) : null;
    cache.set(plan, o);
  }
  return o;
}
