import type { JobPlan, PlanEdge, PlanNode, Partitioning } from './plan.ts';
import type { PipelineDocument, PipelineEdge, PipelineNode } from './document.ts';
import { edgeId, PIPELINE_FORMAT } from './document.ts';
import type { KindSpec, Problem } from './kindSpec.ts';
import type { StreamInfo } from '../core/streamInfo.ts';
import { unknownStream } from '../core/streamInfo.ts';
import { kindSpec, kindSpecs } from './kinds/index.ts';
import { checkParams, codeStrings } from './paramsCheck.ts';
import { checkUdf } from '../expr/udf.ts';
import { migrate } from './migrate.ts';
import type { MigrationSet } from './migrate.ts';
import { DEFAULT_MAX_PARALLELISM } from '../core/keys.ts';
import { checkTests } from './tests/checkTests.ts';
import { checkEnvelope, isEdgeShaped, isNodeShaped } from './envelope.ts';

export interface CompileResult {
  plan: JobPlan | null;
  problems: Problem[];
  /** The document after migrations, when it could be read at all. */
  doc: PipelineDocument | null;
  /**
   * The streams into and out of every node that could be analysed, by port, even when the document has problems,
   * so an editor can show types and check code while the pipeline is still being built.
   */
  streams: Record<string, NodeStreams>;
}

export interface NodeStreams {
  /** The first stream on each connected input port. */
  inputs: Record<string, StreamInfo>;
  outputs: Record<string, StreamInfo>;
}

const nodeProblem = (id: string, field: string, message: string, code: string): Problem => ({ target: id, targetType: 'node', field, message, code });
const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const edgeProblem = (id: string, field: string, message: string, code: string): Problem => ({ target: id, targetType: 'edge', field, message, code });

/** Validates a document and infers every stream. Returns every problem at once, never throws. */
export function compile(input: unknown, migrations?: MigrationSet): CompileResult {
  const migrated = migrate(input, migrations);
  if (!migrated.ok) return { plan: null, problems: [migrated.problem], doc: null, streams: {} };
  const envelope = checkEnvelope(migrated.doc);
  const raw = migrated.doc;
  if (!Array.isArray(raw.nodes) || !Array.isArray(raw.edges)) return { plan: null, problems: envelope, doc: null, streams: {} };
  // Shape faults are reported above; the rest of the document is still checked, so that all problems show at once.
  const doc = (envelope.length ? { ...raw, nodes: raw.nodes.filter(isNodeShaped), edges: raw.edges.filter(isEdgeShaped) } : raw) as unknown as PipelineDocument;
  const problems: Problem[] = [...envelope];

  const group = (kind: string) => kindSpec(kind)?.group;
  problems.push(...checkTests((doc as { tests?: unknown }).tests, doc.nodes, (k) => group(k) === 'sources', (k) => group(k) === 'sinks'));

  const specs = new Map<string, KindSpec>();
  const ids = new Set<string>();
  const badParams = new Set<string>();
  doc.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push(nodeProblem(n.id, `nodes[${i}].id`, `duplicate node id "${n.id}"; every node needs its own id, so rename one of them`, 'duplicate-id'));
    ids.add(n.id);
    if (typeof n.kind !== 'string' || !isObj(n.params)) return; // reported by the envelope check
    const spec = kindSpec(n.kind);
    if (!spec) {
      problems.push(nodeProblem(n.id, 'kind', unknownKindMessage(n.kind), 'unknown-kind'));
      return;
    }
    specs.set(n.id, spec);
    const paramProblems = checkParams(spec, n.params);
    if (paramProblems.length) badParams.add(n.id);
    for (const p of paramProblems) problems.push(nodeProblem(n.id, p.field, p.message, p.code));
    for (const { field, code } of codeStrings(spec.params, n.params)) {
      const err = checkUdf(code);
      const what = err && (err.message.startsWith('the code') ? err.message : `the code ${err.message}`);
      if (err) problems.push(nodeProblem(n.id, field, `${what} (line ${err.line}, column ${err.column}); fix the code there`, 'bad-udf'));
    }
    if (n.parallelism !== undefined && !(Number.isInteger(n.parallelism) && n.parallelism >= 1 && n.parallelism <= 8)) {
      problems.push(nodeProblem(n.id, 'parallelism', `parallelism is ${JSON.stringify(n.parallelism)}; it must be a whole number from 1 to 8 (leave it out to use the pipeline's default)`, 'bad-parallelism'));
    }
  });

  const edgeIds = new Set<string>();
  const incoming = new Map<string, PipelineEdge[]>();
  const goodEdges: PipelineEdge[] = [];
  const attempted = new Set<string>();
  for (const e of doc.edges) {
    const id = edgeId(e);
    if (edgeIds.has(id)) problems.push(edgeProblem(id, 'id', `duplicate edge "${id}"; remove one of them (two edges between the same ports would send every record twice)`, 'duplicate-id'));
    edgeIds.add(id);
    const fromSpec = specs.get(e.from.node);
    const toSpec = specs.get(e.to.node);
    let fromOk = true;
    let toOk = true;
    if (!ids.has(e.from.node)) {
      problems.push(edgeProblem(id, 'from.node', `edge starts at "${e.from.node}", which is not a node; ${nodeHint(ids, e.from.node)}`, 'dangling-edge'));
      fromOk = false;
    } else if (fromSpec && !fromSpec.outputs.length) {
      problems.push(edgeProblem(id, 'from.port', `${fromSpec.title} "${e.from.node}" is a sink and has no outputs; an edge cannot start there`, 'sink-has-no-outputs'));
      fromOk = false;
    } else if (fromSpec && !fromSpec.outputs.some((p) => p.name === e.from.port)) {
      problems.push(edgeProblem(id, 'from.port', `${fromSpec.title} "${e.from.node}" has no output port "${e.from.port}"; its outputs: ${fromSpec.outputs.map((p) => p.name).join(', ')}`, 'bad-port'));
      fromOk = false;
    }
    if (!ids.has(e.to.node)) {
      problems.push(edgeProblem(id, 'to.node', `edge ends at "${e.to.node}", which is not a node; ${nodeHint(ids, e.to.node)}`, 'dangling-edge'));
      toOk = false;
    } else if (toSpec && !toSpec.inputs.length) {
      problems.push(edgeProblem(id, 'to.port', `${toSpec.title} "${e.to.node}" is a source and takes no inputs; an edge cannot end there`, 'source-has-no-inputs'));
      toOk = false;
    } else if (toSpec && !toSpec.inputs.some((p) => p.name === e.to.port)) {
      problems.push(edgeProblem(id, 'to.port', `${toSpec.title} "${e.to.node}" has no input port "${e.to.port}"; its inputs: ${toSpec.inputs.map((p) => p.name).join(', ')}`, 'bad-port'));
      toOk = false;
    }
    // An edge meant for this input, even with a broken start, is not "unconnected": its own problem says what is wrong.
    if (toOk) attempted.add(`${e.to.node}.${e.to.port}`);
    if (!fromOk || !toOk) continue;
    const port = toSpec?.inputs.find((p) => p.name === e.to.port);
    const already = (incoming.get(e.to.node) ?? []).filter((x) => x.to.port === e.to.port);
    if (port && already.length && !port.multiple) {
      problems.push(edgeProblem(id, 'to.port', `input "${e.to.port}" of ${toSpec!.title} "${e.to.node}" takes one edge and already has ${edgeId(already[0])}; use a Union to merge streams`, 'port-taken'));
      continue;
    }
    incoming.set(e.to.node, [...(incoming.get(e.to.node) ?? []), e]);
    goodEdges.push(e);
  }

  for (const n of doc.nodes) {
    const spec = specs.get(n.id);
    if (!spec) continue;
    for (const p of spec.inputs) {
      if (!p.optional && !attempted.has(`${n.id}.${p.name}`)) {
        problems.push(nodeProblem(n.id, `inputs.${p.name}`, `input "${p.name}" of ${spec.title} "${n.id}" is not connected; draw an edge into it${spec.inputs.length > 1 ? ` (inputs: ${spec.inputs.map((q) => q.name).join(', ')})` : ''}`, 'unconnected-input'));
      }
    }
  }

  // On a cycle, streams are still inferred for the nodes before it, so their problems show too.
  const order = topologicalOrder(doc, goodEdges);
  if (order.cycle) {
    problems.push(nodeProblem(order.cycle[0], 'edges', `the graph has a cycle: ${[...order.cycle, order.cycle[0]].join(' → ')}; streams must flow one way, so remove one of these edges`, 'cycle'));
  }

  // Infer streams in topological order; a node with broken inputs still gets unknown streams.
  const outInfo = new Map<string, Record<string, StreamInfo>>();
  // Nodes whose output streams are unknown because the node itself could not be analysed.
  const unanalysed = new Set<string>(doc.nodes.filter((n) => !specs.has(n.id)).map((n) => n.id));
  const planNodes: PlanNode[] = [];
  const streams: Record<string, NodeStreams> = {};
  const defaultParallelism = doc.settings?.parallelism ?? 1;
  // Nodes whose output never ends: a source that never ends by itself, and everything it feeds.
  const endless = new Set<string>();
  for (const id of order.ids) {
    const n = doc.nodes.find((x) => x.id === id)!;
    const spec = specs.get(id);
    if (!spec) continue;
    const inputLists: Record<string, StreamInfo[]> = {};
    for (const e of incoming.get(id) ?? []) (inputLists[e.to.port] ??= []).push(outInfo.get(e.from.node)?.[e.from.port] ?? unknownStream());
    const inputs = Object.fromEntries(Object.entries(inputLists).map(([k, v]) => [k, v[0]]));
    for (const p of spec.inputs) {
      const info = inputs[p.name];
      const fromUnanalysed = (incoming.get(id) ?? []).some((e) => e.to.port === p.name && unanalysed.has(e.from.node));
      if (p.keyed && info && !info.keyedBy && !fromUnanalysed) {
        problems.push(nodeProblem(id, `inputs.${p.name}`, `input "${p.name}" of ${spec.title} "${id}" must be keyed, but its stream is not; put a Key by between the upstream and this node`, 'not-keyed'));
      }
    }
    let result;
    try {
      result = spec.infer({ nodeId: id, params: n.params, inputs, inputLists });
    } catch (e) {
      // Ill-typed params can trip the analysis; their own problems already say what to fix.
      if (!badParams.has(id)) problems.push(nodeProblem(id, 'params', `could not analyse this node (${(e as Error).message}); check its params`, 'bad-param-value'));
      unanalysed.add(id);
      result = { outputs: Object.fromEntries(spec.outputs.map((p) => [p.name, unknownStream()])) };
    }
    const single = readsChangelog(n) ? 'a changelog source runs as one subtask, so the changes of a key stay in order' : (spec.singleSubtask?.(n.params) ?? null);
    if (single && (n.parallelism ?? 1) > 1) {
      problems.push(nodeProblem(id, 'parallelism', `${single}; remove parallelism ${n.parallelism} from "${id}" (downstream operators can still run in parallel)`, 'bad-parallelism'));
    }
    for (const p of result.problems ?? []) problems.push(nodeProblem(id, p.field, p.message, p.code));
    // Fields derived from invalid params are guesses; downstream checks should not trust them.
    outInfo.set(id, badParams.has(id) ? Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, { ...v, fields: null }])) : result.outputs);
    streams[id] = { inputs, outputs: outInfo.get(id)! };
    const endlessInputs = [...new Set((incoming.get(id) ?? []).filter((e) => endless.has(e.from.node)).map((e) => e.to.port))];
    if (spec.endless || endlessInputs.length) endless.add(id);
    planNodes.push({
      id,
      kind: n.kind,
      label: n.label ?? n.id,
      params: n.params,
      spec,
      inputs,
      outputs: result.outputs,
      // A changelog source is read by one subtask: split round-robin, one key's changes could overtake each other.
      parallelism: readsChangelog(n) || spec.singleSubtask?.(n.params) ? 1 : (n.parallelism ?? defaultParallelism),
      isSource: spec.group === 'sources',
      isSink: spec.group === 'sinks',
      ...(endlessInputs.length ? { endlessInputs } : {}),
    });
  }

  // A document with shape faults is not handed out: the canvas could not draw it.
  if (problems.length) return { plan: null, problems, doc: envelope.length ? null : doc, streams };
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
    streams,
  };
}

type Order = { ids: string[]; cycle: string[] | null };

/** Kahn's algorithm in document order, so plans are stable; on a cycle, the nodes before it and one cycle's nodes. */
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
  if (out.length === ids.length) return { ids: out, cycle: null };
  // Walk backwards from a node left over: every left-over node has a left-over predecessor
  // (else it would have been ordered), so the walk must repeat a node, and that loop is a cycle.
  const done = new Set(out);
  const prev = new Map<string, string>();
  for (const e of edges) if (!done.has(e.from.node) && !done.has(e.to.node) && !prev.has(e.to.node)) prev.set(e.to.node, e.from.node);
  let cur = ids.find((id) => !done.has(id))!;
  const path: string[] = [];
  while (!path.includes(cur)) {
    path.push(cur);
    cur = prev.get(cur)!;
  }
  return { ids: out, cycle: path.slice(path.indexOf(cur)).reverse() };
}

/** Levenshtein distance, for "did you mean" hints. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(row[j] + 1, cur[j - 1] + 1, row[j - 1] + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
    row = cur;
  }
  return row[b.length];
}

const closest = (name: string, options: Iterable<string>): string | undefined =>
  [...options].map((o) => ({ o, d: distance(name, o) })).filter((x) => x.d <= Math.max(2, Math.floor(name.length / 3))).sort((a, b) => a.d - b.d)[0]?.o;

function unknownKindMessage(kind: string): string {
  const guess = closest(kind, kindSpecs.map((s) => s.kind));
  return `unknown operator kind "${kind}"; ${guess ? `did you mean "${guess}"? ` : ''}known kinds: ${kindSpecs.map((s) => s.kind).join(', ')}`;
}

function nodeHint(ids: Set<string>, name: string): string {
  const guess = closest(name, ids);
  if (guess) return `did you mean "${guess}"?`;
  const list = [...ids];
  return list.length ? `nodes: ${list.slice(0, 12).join(', ')}${list.length > 12 ? ', …' : ''}` : 'the pipeline has no nodes';
}

export { PIPELINE_FORMAT };

const readsChangelog = (n: PipelineNode): boolean => {
  const c = (n.params as { changelog?: unknown } | undefined)?.changelog;
  return c !== undefined && c !== null;
};
