import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import type { KeyedStateSnapshot, SnapshotCell } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import { sinkPrimaryKey, type ViewSinkOperator } from '../engine/operators/sinks.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';

/**
 * Operator chaining, decided where the job graph is deployed (as Flink's StreamingJobGraphGenerator
 * decides chains): an upsert view right behind a GROUP BY on the same key and parallelism reads the
 * aggregate's arrangement (its column table) instead of applying its changelog to a second table,
 * as Materialize shares arrangements. What the view shows, publishes and checkpoints stays the same:
 * - the view's rows are the aggregate's current groups, built on read;
 * - a view that publishes its changelog (CLI output, exactly-once epochs) still receives it; one that
 *   publishes nothing lets the aggregate skip building changes at all;
 * - its snapshots hold no rows but say `derivedFrom`; a restore rebuilds them from the aggregate's
 *   snapshot of the same checkpoint (`chainedRestore`), so checkpoints restore chained or not.
 */
export interface ViewChain {
  aggregate: string;
  view: string;
}

export interface ChainPlan {
  chains: ViewChain[];
  /** Aggregate → view pairs that stay apart, and why. */
  unchained: (ViewChain & { reason: string })[];
}

export interface ChainOptions {
  /**
   * False: nothing is chained. The designer's observatory turns it off: it shows each operator's
   * own state, steps one operator at a time and taps every edge.
   */
  enabled?: boolean;
}

const sameList = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean =>
  !!a && !!b && a.length === b.length && a.every((f, i) => f === b[i]);

/** The chains the plan allows, before the deploy checks each subtask's state layout. */
export function viewChains(plan: JobPlan, opts: ChainOptions = {}): ChainPlan {
  const out: ChainPlan = { chains: [], unchained: [] };
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  for (const view of plan.nodes) {
    if (view.kind !== 'viewSink') continue;
    const ins = plan.edges.filter((e) => e.to.node === view.id);
    const from = ins.length === 1 ? byId.get(ins[0].from.node) : undefined;
    if (!from || from.kind !== 'aggregate') continue;
    const pair = { aggregate: from.id, view: view.id };
    const reason = opts.enabled === false ? 'chaining is off here (the observatory shows and steps every operator on its own)' : whyNot(plan, from, view);
    if (reason) out.unchained.push({ ...pair, reason });
    else out.chains.push(pair);
  }
  return out;
}

function whyNot(plan: JobPlan, agg: PlanNode, view: PlanNode): string | null {
  const consumers = plan.edges.filter((e) => e.from.node === agg.id && e.to.node !== view.id).map((e) => e.to.node);
  if (consumers.length) return `"${agg.id}" also feeds ${consumers.map((c) => `"${c}"`).join(', ')}`;
  if (agg.parallelism !== view.parallelism) return `different parallelism (${agg.parallelism} and ${view.parallelism})`;
  const groupBy = (agg.params as { groupBy?: string[] }).groupBy ?? [];
  if (groupBy.length === 0) return 'a global aggregate (no GROUP BY key)';
  const pk = sinkPrimaryKey(view.kind, view.params as { primaryKey?: string[] }, view.inputs);
  if (!sameList(pk, groupBy)) return `the view's primary key (${pk?.join(', ') ?? 'none'}) is not the GROUP BY key (${groupBy.join(', ')})`;
  if (!sameList(view.inputs.in?.uniqueKey, groupBy)) return "the aggregate's output is not unique by the view's key";
  return null;
}

/**
 * Binds each chained view subtask to the arrangement of the aggregate subtask with the same index
 * (equal parallelism and key: both own the same key groups), among the subtasks this host runs.
 * A chain stays apart when a view's aggregate subtask runs elsewhere (another worker) or keeps
 * per-key cells (MIN/MAX and other calls, or a durable backend). Returns the chains in force.
 */
export function applyChains(plan: ChainPlan, byNode: ReadonlyMap<string, readonly SubtaskRunner[]>): ChainPlan {
  const out: ChainPlan = { chains: [], unchained: [...plan.unchained] };
  for (const c of plan.chains) {
    const views = byNode.get(c.view) ?? [];
    if (!views.length) continue;
    const aggOf = new Map((byNode.get(c.aggregate) ?? []).map((r) => [r.index, r]));
    const pairs = views.map((v) => ({ v, agg: aggOf.get(v.index), reader: v.task?.operator as Partial<ViewSinkOperator> | undefined }));
    if (pairs.some((p) => !p.agg)) {
      out.unchained.push({ ...c, reason: `a subtask of "${c.view}" runs apart from its "${c.aggregate}" subtask` });
      continue;
    }
    // A durable backend keeps its columns too, but its checkpoint is not inline: a restore that
    // runs the view apart (another layout, a rescale) could not rebuild the view's rows from it.
    if (pairs.some((p) => p.agg!.task && isDurableBackend(p.agg!.task.state))) {
      out.unchained.push({ ...c, reason: `"${c.aggregate}" keeps its state on a durable backend, whose checkpoint a view apart could not be rebuilt from` });
      continue;
    }
    const arrangements = pairs.map((p) => p.agg!.task?.operator.arrangement?.() ?? null);
    if (arrangements.some((a) => a === null) || pairs.some((p) => !p.reader?.readFrom)) {
      out.unchained.push({ ...c, reason: `"${c.aggregate}" keeps its groups in per-key cells (calls other than COUNT/SUM/AVG, or a durable state backend)` });
      continue;
    }
    pairs.forEach(({ v, agg, reader }, i) => {
      reader!.readFrom!(arrangements[i]!);
      v.derivedFrom = c.aggregate;
      if (!v.publishesChangelog) agg!.task!.operator.dropChangelog?.();
    });
    out.chains.push(c);
  }
  return out;
}

/** One line per aggregate → view pair, for the CLI and logs: what runs chained and what does not. */
export function describeChains(plan: ChainPlan): string[] {
  return [
    ...plan.chains.map((c) => `chained: ${c.aggregate} → ${c.view} (the view reads ${c.aggregate}'s groups)`),
    ...plan.unchained.map((c) => `not chained: ${c.aggregate} → ${c.view}: ${c.reason}`),
  ];
}

const emptyKeyed = (maxParallelism: number): SubtaskSnapshot['keyed'] => ({ type: 'inline', snapshot: { maxParallelism, keyGroups: {} } });

/**
 * The snapshots a restore hands each node, given which views run chained now. A chained view takes
 * no rows (the aggregate's restored groups are its rows, whatever the checkpoint held); an unchained
 * view whose checkpoint was taken chained gets its rows back from the aggregate's snapshot, as the
 * cells the view would have written itself (the row last emitted per group).
 */
export function chainedRestore(plan: JobPlan, snaps: Record<string, SubtaskSnapshot[]>, chained: ReadonlySet<string>): Record<string, SubtaskSnapshot[]> {
  const out = { ...snaps };
  for (const view of plan.nodes) {
    const list = snaps[view.id];
    if (!list?.length) continue;
    if (chained.has(view.id)) {
      out[view.id] = list.map((s) => ({ ...s, keyed: emptyKeyed(plan.maxParallelism) }));
      continue;
    }
    const from = list.find((s) => s.derivedFrom)?.derivedFrom;
    if (!from) continue;
    const rows = derivedRows(view.id, from, snaps[from] ?? [], plan.maxParallelism);
    // Rebuilt, they are a plain view's snapshots (a second pass, on a worker, leaves them alone).
    out[view.id] = list.map(({ derivedFrom: _, ...s }, i) => ({ ...s, keyed: i === 0 ? { type: 'inline' as const, snapshot: rows } : emptyKeyed(plan.maxParallelism) }));
  }
  return out;
}

function derivedRows(viewId: string, from: string, aggSnaps: readonly SubtaskSnapshot[], maxParallelism: number): KeyedStateSnapshot {
  // No snapshot of the aggregate: its state is deliberately not restored (--allow-non-restored-state
  // after an incompatible change), and the view derived from it starts empty with it.
  const keyGroups: Record<number, SnapshotCell[]> = {};
  for (const s of aggSnaps) {
    if (s.keyed.type !== 'inline') throw new Error(`view "${viewId}": the state of "${from}" in this checkpoint is not inline, so the view cannot be rebuilt from it`);
    for (const [kg, cells] of Object.entries(s.keyed.snapshot.keyGroups)) {
      for (const c of cells) {
        const out = c.state === 'group' ? (c.value as { out?: unknown } | null)?.out : null;
        if (!out) continue;
        (keyGroups[Number(kg)] ??= []).push({ state: 'row', kind: 'value', key: c.key, value: out, touched: c.touched, eventTime: c.eventTime });
      }
    }
  }
  return { maxParallelism, keyGroups };
}
