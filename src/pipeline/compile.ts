import type { JobPlan, PlanEdge, PlanNode, Partitioning } from './plan.ts';
import type { PipelineDocument, PipelineEdge } from './document.ts';
import { edgeId, PIPELINE_FORMAT } from './document.ts';
import type { KindSpec, Problem } from './kindSpec.ts';
import type { StreamInfo } from './streamInfo.ts';
import { unknownStream } from './streamInfo.ts';
import { kindSpec } from './kinds/index.ts';
import { checkParams } from './paramsCheck.ts';
import { checkUdf } from '../engine/udf.ts';
import { migrate } from './migrate.ts';
import { DEFAULT_MAX_PARALLELISM } from '../engine/keys.ts';
import { checkEnvelope } from './envelope.ts';

export interface CompileResult {
  plan: JobPlan | null;
  problems: Problem[];
  /** The document after migrations, when it could be read at all. */
  doc: PipelineDocument | null;
}

const nodeProblem = (id: string, field: string, message: string, code: string): Problem => ({ target: id, targetType: 'node', field, message, code });
const edgeProblem = (id: string, field: string, message: string, code: string): Problem => ({ target: id, targetType: 'edge', field, message, code });

/** Validates a document and infers every stream. Returns every problem at once, never throws. */
export function compile(input: unknown): CompileResult {
  const migrated = migrate(input);
  if (!migrated.ok) return { plan: null, problems: [migrated.problem], doc: null };
  const envelope = checkEnvelope(migrated.doc);
  if (envelope.length) return { plan: null, problems: envelope, doc: null };
  const doc = migrated.doc as unknown as PipelineDocument;
  const problems: Problem[] = [];

  const specs = new Map<string, KindSpec>();
  const ids = new Set<string>();
  doc.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push(nodeProblem(n.id, `nodes[${i}].id`, `duplicate node id "${n.id}"; every node needs its own id`, 'duplicate-id'));
    ids.add(n.id);
    const spec = kindSpec(n.kind);
    if (!spec) {
      problems.push(nodeProblem(n.id, 'kind', `unknown operator kind "${n.kind}"`, 'unknown-kind'));
      return;
    }
    specs.set(n.id, spec);
    for (const p of checkParams(spec, n.params)) problems.push(nodeProblem(n.id, p.field, p.message, p.code));
    for (const name of spec.codeParams ?? []) {
      const code = (n.params as Record<string, unknown>)[name];
      if (typeof code !== 'string') continue;
      const err = checkUdf(code);
      if (err) problems.push(nodeProblem(n.id, `params.${name}`, `code ${err.message} (line ${err.line}, column ${err.column})`, 'bad-udf'));
    }
    if (n.parallelism !== undefined && !(Number.isInteger(n.parallelism) && n.parallelism >= 1 && n.parallelism <= 8)) {
      problems.push(nodeProblem(n.id, 'parallelism', 'parallelism must be a whole number from 1 to 8', 'bad-parallelism'));
    }
  });

  const edgeIds = new Set<string>();
  const incoming = new Map<string, PipelineEdge[]>();
  const goodEdges: PipelineEdge[] = [];
  for (const e of doc.edges) {
    const id = edgeId(e);
    if (edgeIds.has(id)) problems.push(edgeProblem(id, 'id', `duplicate edge "${id}"`, 'duplicate-id'));
    edgeIds.add(id);
    const fromSpec = specs.get(e.from.node);
    const toSpec = specs.get(e.to.node);
    let ok = true;
    if (!ids.has(e.from.node)) {
      problems.push(edgeProblem(id, 'from.node', `edge starts at "${e.from.node}", which is not a node`, 'dangling-edge'));
      ok = false;
    } else if (fromSpec && !fromSpec.outputs.some((p) => p.name === e.from.port)) {
      problems.push(edgeProblem(id, 'from.port', `${fromSpec.title} "${e.from.node}" has no output port "${e.from.port}"; ports: ${fromSpec.outputs.map((p) => p.name).join(', ') || '(none)'}`, 'bad-port'));
      ok = false;
    }
    if (!ids.has(e.to.node)) {
      problems.push(edgeProblem(id, 'to.node', `edge ends at "${e.to.node}", which is not a node`, 'dangling-edge'));
      ok = false;
    } else if (toSpec && !toSpec.inputs.some((p) => p.name === e.to.port)) {
      problems.push(edgeProblem(id, 'to.port', `${toSpec.title} "${e.to.node}" has no input port "${e.to.port}"; ports: ${toSpec.inputs.map((p) => p.name).join(', ') || '(none)'}`, 'bad-port'));
      ok = false;
    }
    if (!ok || !fromSpec || !toSpec) continue;
    const port = toSpec.inputs.find((p) => p.name === e.to.port)!;
    const already = (incoming.get(e.to.node) ?? []).filter((x) => x.to.port === e.to.port);
    if (already.length && !port.multiple) {
      problems.push(edgeProblem(id, 'to.port', `input "${e.to.port}" of "${e.to.node}" takes one edge and already has ${edgeId(already[0])}; use a Union to merge streams`, 'port-taken'));
      continue;
    }
    incoming.set(e.to.node, [...(incoming.get(e.to.node) ?? []), e]);
    goodEdges.push(e);
  }

  for (const n of doc.nodes) {
    const spec = specs.get(n.id);
    if (!spec) continue;
    for (const p of spec.inputs) {
      if (!p.optional && !(incoming.get(n.id) ?? []).some((e) => e.to.port === p.name)) {
        problems.push(nodeProblem(n.id, `inputs.${p.name}`, `input "${p.name}" is not connected`, 'unconnected-input'));
      }
    }
  }

  const order = topologicalOrder(doc, goodEdges);
  if (!order.ok) {
    problems.push(nodeProblem(order.cycle[0], 'edges', `the graph has a cycle: ${[...order.cycle, order.cycle[0]].join(' → ')}; streams must flow one way`, 'cycle'));
    return { plan: null, problems, doc };
  }

  // Infer streams in topological order; a node with broken inputs still gets unknown streams.
  const outInfo = new Map<string, Record<string, StreamInfo>>();
  const planNodes: PlanNode[] = [];
  const defaultParallelism = doc.settings?.parallelism ?? 1;
  for (const id of order.ids) {
    const n = doc.nodes.find((x) => x.id === id)!;
    const spec = specs.get(id);
    if (!spec) continue;
    const inputLists: Record<string, StreamInfo[]> = {};
    for (const e of incoming.get(id) ?? []) (inputLists[e.to.port] ??= []).push(outInfo.get(e.from.node)?.[e.from.port] ?? unknownStream());
    const inputs = Object.fromEntries(Object.entries(inputLists).map(([k, v]) => [k, v[0]]));
    for (const p of spec.inputs) {
      const info = inputs[p.name];
      if (p.keyed && info && !info.keyedBy) problems.push(nodeProblem(id, `inputs.${p.name}`, `input "${p.name}" must be keyed: put a Key by before ${spec.title}`, 'not-keyed'));
    }
    let result;
    try {
      result = spec.infer({ nodeId: id, params: n.params, inputs, inputLists });
    } catch (e) {
      problems.push(nodeProblem(id, 'params', `could not analyse this node: ${(e as Error).message}`, 'bad-param-value'));
      result = { outputs: Object.fromEntries(spec.outputs.map((p) => [p.name, unknownStream()])) };
    }
    for (const p of result.problems ?? []) problems.push(nodeProblem(id, p.field, p.message, p.code));
    outInfo.set(id, result.outputs);
    planNodes.push({
      id,
      kind: n.kind,
      label: n.label ?? n.id,
      params: n.params,
      spec,
      inputs,
      outputs: result.outputs,
      parallelism: n.parallelism ?? defaultParallelism,
      isSource: spec.group === 'sources',
      isSink: spec.group === 'sinks',
    });
  }

  if (problems.length) return { plan: null, problems, doc };
  const byId = new Map(planNodes.map((p) => [p.id, p]));
  const edges: PlanEdge[] = goodEdges.map((e) => {
    const info = outInfo.get(e.from.node)?.[e.from.port] ?? unknownStream();
    const target = byId.get(e.to.node)!;
    const port = target.spec.inputs.find((p) => p.name === e.to.port)!;
    const keyFields = info.keyedBy ?? null;
    const partitioning: Partitioning = port.broadcast ? 'broadcast' : keyFields ? 'hash' : byId.get(e.from.node)!.parallelism === target.parallelism ? 'forward' : 'rebalance';
    return { id: edgeId(e), from: e.from, to: e.to, info, partitioning, keyFields };
  });
  return {
    plan: { doc, nodes: planNodes, edges, seed: doc.settings?.seed ?? 42, maxParallelism: doc.settings?.maxParallelism ?? DEFAULT_MAX_PARALLELISM },
    problems,
    doc,
  };
}

type Order = { ok: true; ids: string[] } | { ok: false; cycle: string[] };

/** Kahn's algorithm in document order, so plans are stable; on a cycle, returns one cycle's nodes. */
function topologicalOrder(doc: PipelineDocument, edges: PipelineEdge[]): Order {
  const ids = [...new Set(doc.nodes.map((n) => n.id))];
  const indeg = new Map(ids.map((id) => [id, 0]));
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) {
    indeg.set(e.to.node, (indeg.get(e.to.node) ?? 0) + 1);
    next.get(e.from.node)?.push(e.to.node);
  }
  const ready = ids.filter((id) => indeg.get(id) === 0);
  const out: string[] = [];
  while (ready.length) {
    const id = ready.shift()!;
    out.push(id);
    for (const m of next.get(id) ?? []) {
      indeg.set(m, indeg.get(m)! - 1);
      if (indeg.get(m) === 0) ready.push(m);
    }
  }
  if (out.length === ids.length) return { ok: true, ids: out };
  // Walk forward from a node left over until a node repeats: that loop is a cycle.
  const left = new Set(ids.filter((id) => !out.includes(id)));
  let cur = [...left][0];
  const path: string[] = [];
  while (!path.includes(cur)) {
    path.push(cur);
    cur = (next.get(cur) ?? []).find((m) => left.has(m)) ?? cur;
  }
  return { ok: false, cycle: path.slice(path.indexOf(cur)) };
}

export { PIPELINE_FORMAT };
