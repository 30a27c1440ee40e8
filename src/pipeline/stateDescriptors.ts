import type { JobPlan, PlanNode } from './plan.ts';
import type { AggregateCall } from './kinds/aggregateCall.ts';

/**
 * What a checkpoint's state of one operator means, as Flink's state descriptors say it:
 * a name, a kind and a type. A resume restores an operator's state only into an operator with
 * the same id and the same descriptors; anything else would read old bytes with a new meaning
 * (a `sum` accumulator restored into a `max`).
 */
export interface StateDescriptor {
  name: string;
  kind: string;
  type: string;
}

export type PipelineStateDescriptors = Record<string, { kind: string; state: StateDescriptor[] }>;

/**
 * The keyed state a process node's code declares (its `state: { ... }` block), by state name:
 * the declared kind and TTL settings. Only loading the code tells them, which the caller does
 * (in its sandbox); a node missing here is described by its code text, which is stricter.
 */
export type DeclaredCodeStates = Record<string, Record<string, { kind: string; ttlMs?: number; ttlUpdate?: string; ttlTime?: string }>>;

/** The descriptors of every operator that keeps state (sources keep their read offset). */
export function stateDescriptors(plan: JobPlan, codeStates: DeclaredCodeStates = {}): PipelineStateDescriptors {
  const out: PipelineStateDescriptors = {};
  for (const n of plan.nodes) {
    const state = descriptorsOf(n, codeStates[n.id]);
    if (state.length) out[n.id] = { kind: n.kind, state };
  }
  return out;
}

function descriptorsOf(n: PlanNode, declared: DeclaredCodeStates[string] | undefined): StateDescriptor[] {
  if (n.isSource) return [{ name: 'offset', kind: 'source', type: n.kind }];
  if (!n.spec.stateful) return [];
  const inputTypes = Object.values(n.inputs).map((s) => canonical(s.fields ?? null));
  // Code may change freely as long as the state it declares does (as in Flink, where the
  // function is not part of a savepoint, its state descriptors are): name, kind, TTL and the key.
  if (n.kind === 'process') {
    const input = n.inputs.in;
    const fields = (input?.fields ?? {}) as Record<string, unknown>;
    const key = { name: '(key)', kind: 'key', type: canonical((input?.keyedBy ?? []).map((f) => [f, fields[f] ?? null])) };
    if (!declared) return [key, { name: '(code)', kind: 'process code', type: canonical((n.params as { code?: unknown }).code ?? null) }];
    return [key, ...Object.entries(declared).map(([name, d]) => ({ name, kind: d.kind, type: canonical({ ttlMs: d.ttlMs ?? null, ttlUpdate: d.ttlUpdate ?? null, ttlTime: d.ttlTime ?? null }) }))];
  }
  // Broadcast state holds the rule rows by their rule key, whatever the code or the lookup do with them.
  if (n.kind === 'broadcastProcess') {
    const ruleKey = (n.params as { ruleKey?: string }).ruleKey ?? null;
    const ruleFields = (n.inputs.rules?.fields ?? {}) as Record<string, unknown>;
    return [{ name: 'rules', kind: 'broadcast map', type: canonical({ ruleKey, keyType: ruleKey === null ? null : (ruleFields[ruleKey] ?? null) }) }];
  }
  if (n.kind === 'aggregate') {
    const p = n.params as { groupBy: string[]; aggregates: AggregateCall[] };
    const fields = (n.inputs.in?.fields ?? {}) as Record<string, unknown>;
    return [
      { name: 'group', kind: 'key', type: canonical(p.groupBy.map((f) => [f, fields[f] ?? null])) },
      ...p.aggregates.map((c) => ({ name: c.as, kind: c.fn, type: canonical({ field: c.field ?? null, type: c.field ? (fields[c.field] ?? null) : null, distinct: (c as { distinct?: unknown }).distinct ?? null, code: (c as { code?: unknown }).code ?? null }) })),
    ];
  }
  // Other operators: their whole configuration and input types define what their state holds.
  return [{ name: n.kind, kind: n.kind, type: canonical({ params: n.params, inputs: inputTypes }) }];
}

/** JSON with sorted keys, so that equal values give equal strings. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export interface StateMismatch {
  nodeId: string;
  message: string;
}

/**
 * Compares the descriptors a checkpoint was written with to the pipeline now: every operator
 * with state in the checkpoint must exist with the same kind and descriptors. Operators that
 * are new start with empty state, as in Flink.
 */
export function compareStateDescriptors(old: PipelineStateDescriptors, now: PipelineStateDescriptors): StateMismatch[] {
  const out: StateMismatch[] = [];
  for (const [id, was] of Object.entries(old)) {
    const is = now[id];
    if (!is) {
      out.push({ nodeId: id, message: `operator "${id}" (${was.kind}) has state in the checkpoint but is not in the pipeline any more` });
      continue;
    }
    if (is.kind !== was.kind) {
      out.push({ nodeId: id, message: `operator "${id}" was a ${was.kind} and is now a ${is.kind}: its state cannot be restored into it` });
      continue;
    }
    const before = new Map(was.state.map((s) => [s.name, s]));
    const after = new Map(is.state.map((s) => [s.name, s]));
    const diffs: string[] = [];
    for (const [name, s] of before) {
      const t = after.get(name);
      if (!t) diffs.push(`state "${name}" (${s.kind}) is gone`);
      else if (t.kind !== s.kind || t.type !== s.type) diffs.push(`state "${name}" was ${s.kind} ${s.type}, now ${t.kind} ${t.type}`);
    }
    for (const [name, t] of after) if (!before.has(name)) diffs.push(`state "${name}" (${t.kind}) is new`);
    if (diffs.length) out.push({ nodeId: id, message: `operator "${id}" (${is.kind}) changed incompatibly since the checkpoint: ${diffs.join('; ')}` });
  }
  return out;
}
