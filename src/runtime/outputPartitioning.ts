import type { Element } from '../core/types.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import { operatorDefinition } from '../engine/registry.ts';
import type { KeyFields } from '../core/keys.ts';
import type { ChannelMessage } from './messages.ts';
import { effectivePartitioning, partitionerFor } from './partitioner.ts';
import type { Partitioner } from './partitioner.ts';

/** Where a subtask's messages go: the host's channels, with credit. */
export interface ChannelSink {
  hasCredit(edge: number, from: number, to: number): boolean;
  send(edge: number, from: number, to: number, msg: ChannelMessage): void;
}

interface OutEdge {
  edge: number;
  port: string;
  targets: number[];
  partition: Partitioner;
}

/** How the edges of a plan connect subtasks once parallelism is known: forward edges pair subtask i with i. */
export function edgeShape(plan: JobPlan, ei: number): { from: PlanNode; to: PlanNode; forward: boolean; how: ReturnType<typeof effectivePartitioning> } {
  const e = plan.edges[ei];
  const from = plan.nodes.find((n) => n.id === e.from.node)!;
  const to = plan.nodes.find((n) => n.id === e.to.node)!;
  const how = effectivePartitioning(e, from.parallelism, to.parallelism, operatorKeyFields(to, e.to.port));
  return { from, to, forward: how.partitioning === 'forward', how };
}

/**
 * A subtask's output side (Flink's RecordWriter per output edge): each port's batches split
 * among the downstream subtasks by the edge's partitioner, control messages to all of them.
 */
export class OutputPartitioning {
  private readonly outs: OutEdge[] = [];
  /** Per port, the edges leaving it (most operators have one port, so one lookup per batch). */
  private readonly byPort = new Map<string, OutEdge[]>();

  constructor(
    plan: JobPlan,
    node: PlanNode,
    private readonly index: number,
    private readonly channels: ChannelSink,
  ) {
    plan.edges.forEach((e, ei) => {
      if (e.from.node !== node.id) return;
      const { to, forward, how } = edgeShape(plan, ei);
      const targets = forward ? [index] : range(to.parallelism);
      const out = { edge: ei, port: e.from.port, targets, partition: partitionerFor(how, index, targets.length, plan.maxParallelism) };
      this.outs.push(out);
      const list = this.byPort.get(out.port) ?? [];
      list.push(out);
      this.byPort.set(out.port, list);
    });
  }

  /** Every downstream channel can take one more message. */
  haveCredit(): boolean {
    for (const o of this.outs) for (const t of o.targets) if (!this.channels.hasCredit(o.edge, this.index, t)) return false;
    return true;
  }

  emit(port: string, els: Element[]): void {
    const outs = this.byPort.get(port);
    if (outs) this.emitTo(outs, els);
  }

  /** A source's records go to every edge leaving it. */
  emitAll(els: Element[]): void {
    this.emitTo(this.outs, els);
  }

  broadcast(msg: ChannelMessage): void {
    for (const o of this.outs) for (const t of o.targets) this.channels.send(o.edge, this.index, t, msg);
  }

  private emitTo(outs: readonly OutEdge[], els: Element[]): void {
    for (const o of outs) {
      const parts = o.partition(els);
      for (let i = 0; i < o.targets.length; i++) if (parts[i].length) this.channels.send(o.edge, this.index, o.targets[i], { t: 'batch', els: parts[i] });
    }
  }
}

function operatorKeyFields(target: PlanNode, port: string): KeyFields | null {
  if (target.isSource) return null;
  return operatorDefinition(target.kind).keyFields?.(target.params, port, target.inputs) ?? null;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
