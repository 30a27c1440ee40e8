import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, StateTime } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';
import { applyChains, viewChains, type ChainPlan } from './chaining.ts';
import type { ClusterOptions } from './clusterTypes.ts';

/**
 * The subtasks one attempt of an in-process run deployed: every runner in plan order, by node,
 * the sources among them and the view chains in force. A restart retires them all (durable
 * backends close first, so the next attempt's can open the same namespace) and spawns afresh.
 * Also what the observatory reads across them: node metrics and message routing targets.
 */
export class ClusterSubtasks {
  runners: SubtaskRunner[] = [];
  readonly byNode = new Map<string, SubtaskRunner[]>();
  sources: SubtaskRunner[] = [];
  /** What the last deploy put in force. */
  chained: ChainPlan = { chains: [], unchained: [] };

  constructor(private readonly plan: JobPlan) {}

  /** A killed attempt's durable backends release their namespace before the new ones open it. */
  retire(): void {
    for (const r of this.runners) if (r.task && isDurableBackend(r.task.state)) r.task.state.close();
    this.runners = [];
    this.byNode.clear();
  }

  /** Makes every subtask of the plan; `chain`: run upsert views chained behind their GROUP BY. */
  spawn(make: (node: PlanNode, index: number) => SubtaskRunner, chain: boolean): void {
    for (const n of this.plan.nodes) {
      const list: SubtaskRunner[] = [];
      for (let index = 0; index < n.parallelism; index++) list.push(make(n, index));
      this.byNode.set(n.id, list);
      this.runners.push(...list);
    }
    this.chained = applyChains(viewChains(this.plan, { enabled: chain }), this.byNode);
    this.sources = this.runners.filter((r) => r.source);
  }

  /** The subtask that reads channel `edge` at index `to`. */
  target(edge: number, to: number): SubtaskRunner {
    return this.byNode.get(this.plan.edges[edge].to.node)![to];
  }

  allFinished(): boolean {
    for (const r of this.runners) if (!r.finished) return false;
    return true;
  }

  /** Per node, its subtasks' metrics added up (watermark: the lowest). */
  metrics(): Record<string, NodeMetrics> {
    const out: Record<string, NodeMetrics> = {};
    for (const [id, list] of this.byNode) {
      const m: NodeMetrics = { recordsIn: 0, recordsOut: 0, watermark: Infinity, counters: {}, deadLetters: 0, timers: 0 };
      for (const r of list) {
        const part = r.task ? r.task.metrics(r.deadLetterCount) : { recordsIn: 0, recordsOut: r.recordsEmitted, watermark: r.watermark(), counters: {}, deadLetters: r.deadLetterCount, timers: 0 };
        m.recordsIn += part.recordsIn;
        m.recordsOut += part.recordsOut;
        m.watermark = Math.min(m.watermark, part.watermark);
        m.deadLetters += part.deadLetters;
        m.timers += part.timers;
        for (const [k, v] of Object.entries(part.counters)) m.counters[k] = (m.counters[k] ?? 0) + v;
      }
      out[id] = m;
    }
    return out;
  }
}

/**
 * Opens the state backend of every operator subtask before the runners bind their state
 * (synchronously): a backend may need to open first (IndexedDB). Each comes back as the
 * factory a runner calls with its state time.
 */
export async function openBackends(plan: JobPlan, factory: NonNullable<ClusterOptions['backend']>, attempt: number): Promise<Map<string, (time: StateTime) => KeyedStateBackend>> {
  const backends = new Map<string, (time: StateTime) => KeyedStateBackend>();
  for (const n of plan.nodes) if (!n.isSource) for (let i = 0; i < n.parallelism; i++) backends.set(`${n.id}#${i}`, await openBackend(factory, n, i, attempt));
  return backends;
}

/** A backend factory's result for one subtask, made before the runner binds its state. */
async function openBackend(factory: NonNullable<ClusterOptions['backend']>, n: PlanNode, index: number, attempt: number): Promise<(time: StateTime) => KeyedStateBackend> {
  let time: StateTime | null = null;
  const proxyTime: StateTime = { processingTime: () => time!.processingTime(), eventTime: () => time!.eventTime() };
  const backend = await factory(n, index, proxyTime, attempt);
  return (t) => {
    time = t;
    return backend;
  };
}
