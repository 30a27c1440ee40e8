import type { Problem } from './kindSpec.ts';

const docProblem = (field: string, message: string, code: string): Problem => ({ target: null, targetType: 'document', field, message, code });
const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const shown = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v)?.slice(0, 40) ?? String(v));

/** Ids end up as keys of plain objects (views by sink id, metrics by node id); these would reach a prototype. */
export const RESERVED_IDS = new Set(['__proto__', 'constructor', 'prototype']);
export const NODE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A node the compiler can reason about: an object with a string id. Other entries are reported here only. */
export const isNodeShaped = (n: unknown): n is Record<string, unknown> & { id: string } => isObj(n) && typeof n.id === 'string';

const isPortRef = (r: unknown) => isObj(r) && typeof r.node === 'string' && typeof r.port === 'string';
/** An edge the compiler can follow: both ends name a node and a port, and the id, if any, is a string. */
export const isEdgeShaped = (e: unknown): boolean => isObj(e) && isPortRef(e.from) && isPortRef(e.to) && (e.id === undefined || typeof e.id === 'string');

/**
 * Shape checks of the document around its nodes and edges, with one message per fault.
 * Only missing `nodes`/`edges` arrays stop the compiler; other faults are reported and it carries on.
 */
export function checkEnvelope(doc: unknown): Problem[] {
  if (!isObj(doc)) return [docProblem('', 'a pipeline document must be a JSON object { "format", "version", "name", "nodes", "edges" }', 'bad-document')];
  const out: Problem[] = [];
  if (typeof doc.name !== 'string' || doc.name.trim() === '') out.push(docProblem('name', `the pipeline needs a name: "name" must be a non-empty string; it is ${shown(doc.name)}`, 'missing-field'));
  if (!Array.isArray(doc.nodes)) out.push(docProblem('nodes', `"nodes" must be an array of nodes (use [] for none); it is ${shown(doc.nodes)}`, 'missing-field'));
  if (!Array.isArray(doc.edges)) out.push(docProblem('edges', `"edges" must be an array of edges (use [] for none); it is ${shown(doc.edges)}`, 'missing-field'));
  if (doc.description !== undefined && typeof doc.description !== 'string') out.push(docProblem('description', '"description" must be a string', 'bad-field'));
  const known = new Set(['format', 'version', 'name', 'description', 'settings', 'nodes', 'edges', 'tests', 'origin']);
  for (const k of Object.keys(doc)) {
    if (!known.has(k)) out.push(docProblem(k, `unknown top-level field "${k}"; remove it or check its spelling (known: ${[...known].join(', ')})`, 'extra-field'));
  }
  if (doc.origin !== undefined && !(isObj(doc.origin) && typeof doc.origin.sql === 'string' && Object.keys(doc.origin).length === 1)) {
    out.push(docProblem('origin', `"origin" must be { "sql": "<the script the document was planned from>" }; it is ${shown(doc.origin)}`, 'bad-field'));
  }
  if (doc.settings !== undefined) out.push(...checkSettings(doc.settings));
  if (Array.isArray(doc.nodes)) doc.nodes.forEach((n, i) => out.push(...checkNode(n, i)));
  if (Array.isArray(doc.edges)) doc.edges.forEach((e, i) => out.push(...checkEdge(e, i)));
  return out;
}

const SPAN_KEYS = ['line', 'column', 'endLine', 'endColumn'];
const isSpan = (s: unknown): boolean =>
  isObj(s) && Object.keys(s).length === SPAN_KEYS.length && SPAN_KEYS.every((k) => Number.isInteger(s[k]) && (s[k] as number) >= 1);

function checkNode(n: unknown, i: number): Problem[] {
  if (!isObj(n)) return [docProblem(`nodes[${i}]`, `nodes[${i}] must be an object { "id", "kind", "params" }, not ${shown(n)}`, 'bad-node')];
  const out: Problem[] = [];
  const id = typeof n.id === 'string' ? n.id : null;
  // Faults of a node with an id point at that node; without one, at its place in the list.
  const at = (field: string, message: string, code: string): Problem =>
    id === null ? docProblem(`nodes[${i}].${field}`, message, code) : { target: id, targetType: 'node', field, message, code };
  if (id === null) {
    out.push(docProblem(`nodes[${i}].id`, `nodes[${i}] needs an "id" string of letters, digits, "_" or "-", starting with a letter or "_"`, 'bad-id'));
  } else if (RESERVED_IDS.has(id)) {
    out.push(at('id', `the node id "${id}" is reserved; choose another name`, 'bad-id'));
  } else if (!NODE_ID_PATTERN.test(id)) {
    out.push(at('id', `the node id "${id}" is not a valid name: use letters, digits, "_" or "-", starting with a letter or "_" (for example "${suggestId(id)}")`, 'bad-id'));
  }
  if (typeof n.kind !== 'string') out.push(at('kind', `a node needs a "kind" string naming its operator, such as "filter"; it is ${shown(n.kind)}`, 'missing-field'));
  if (!isObj(n.params)) out.push(at('params', `"params" must be an object (use {} when the kind needs none); it is ${shown(n.params)}`, 'missing-field'));
  if (n.label !== undefined && typeof n.label !== 'string') out.push(at('label', '"label" must be a string', 'bad-field'));
  const nodeKeys = new Set(['id', 'kind', 'label', 'params', 'position', 'parallelism', 'origin']);
  for (const k of Object.keys(n)) {
    if (!nodeKeys.has(k)) out.push(at(k, `unknown node field "${k}"; operator settings belong in "params" (node fields: ${[...nodeKeys].join(', ')})`, 'extra-field'));
  }
  if (n.origin !== undefined && !(isObj(n.origin) && isSpan(n.origin.sql) && Object.keys(n.origin).length === 1)) {
    out.push(at('origin', `origin must be { "sql": { "line", "column", "endLine", "endColumn" } } (whole numbers ≥ 1, the span in the document's origin.sql); it is ${shown(n.origin)}`, 'bad-field'));
  }
  if (n.position !== undefined && !(isObj(n.position) && typeof n.position.x === 'number' && typeof n.position.y === 'number')) {
    out.push(at('position', `position must be { "x": number, "y": number }; it is ${shown(n.position)}`, 'bad-field'));
  }
  return out;
}

function checkEdge(e: unknown, i: number): Problem[] {
  const shape = 'an edge must be { "from": { "node", "port" }, "to": { "node", "port" } }';
  if (!isObj(e)) return [docProblem(`edges[${i}]`, `${shape}; edges[${i}] is ${shown(e)}`, 'bad-edge')];
  const out: Problem[] = [];
  const id = typeof e.id === 'string' ? e.id : null;
  // Faults of a named edge point at it; an unnamed one is found by its place in the list.
  const at = (field: string, message: string, code: string): Problem =>
    id === null ? docProblem(`edges[${i}].${field}`, message, code) : { target: id, targetType: 'edge', field, message, code };
  for (const end of ['from', 'to'] as const) {
    const r = e[end];
    if (!isObj(r)) out.push(at(end, `${shape}; "${end}" is ${shown(r)}`, 'bad-edge'));
    else for (const k of ['node', 'port']) if (typeof r[k] !== 'string') out.push(at(`${end}.${k}`, `"${end}.${k}" must be a string; it is ${shown(r[k])}`, 'bad-edge'));
  }
  if (e.id !== undefined && id === null) out.push(docProblem(`edges[${i}].id`, `an edge id must be a string; it is ${shown(e.id)}`, 'bad-edge'));
  else if (id !== null && RESERVED_IDS.has(id)) out.push(at('id', `the edge id "${id}" is reserved; choose another name`, 'bad-id'));
  for (const k of Object.keys(e)) {
    if (k !== 'id' && k !== 'from' && k !== 'to') out.push(at(k, `unknown edge field "${k}"; an edge has only "id", "from" and "to"`, 'extra-field'));
  }
  return out;
}

function suggestId(id: string): string {
  const s = id.trim().replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+(?=.)|_+$/g, '') || 'node';
  return /^[A-Za-z_]/.test(s) ? s : `n_${s}`;
}

/** A whole-number setting out of range, or nothing. */
function intSetting(obj: Record<string, unknown>, path: string, k: string, min: number, max: number): Problem[] {
  const v = obj[k];
  if (v === undefined || (Number.isInteger(v) && (v as number) >= min && (v as number) <= max)) return [];
  const range = max >= 2 ** 31 ? `≥ ${min}` : `from ${min} to ${max}`;
  return [docProblem(`${path}.${k}`, `${k} is ${shown(v)}; it must be a whole number ${range}`, 'bad-settings')];
}

function checkSettings(s: unknown): Problem[] {
  if (!isObj(s)) return [docProblem('settings', `"settings" must be an object; it is ${shown(s)}`, 'bad-settings')];
  const out: Problem[] = [
    ...intSetting(s, 'settings', 'parallelism', 1, 8),
    ...intSetting(s, 'settings', 'maxParallelism', 1, 32768),
    ...intSetting(s, 'settings', 'seed', 0, 2 ** 32 - 1),
    ...intSetting(s, 'settings', 'idleTimeoutMs', 1, 2 ** 31),
  ];
  if (s.defaultRatePerSec !== undefined && !(typeof s.defaultRatePerSec === 'number' && s.defaultRatePerSec > 0)) {
    out.push(docProblem('settings.defaultRatePerSec', `defaultRatePerSec is ${shown(s.defaultRatePerSec)}; it must be a number of records per second above 0`, 'bad-settings'));
  }
  if (s.stateBackend !== undefined && s.stateBackend !== 'memory' && s.stateBackend !== 'indexeddb') {
    out.push(docProblem('settings.stateBackend', `unknown state backend ${shown(s.stateBackend)}; use "memory" or "indexeddb"`, 'bad-settings'));
  }
  if (s.runtime !== undefined && s.runtime !== 'inProcess' && s.runtime !== 'workers') {
    out.push(docProblem('settings.runtime', `unknown runtime ${shown(s.runtime)}; use "inProcess" (one worker) or "workers" (Web Workers)`, 'bad-settings'));
  }
  if (s.checkpoint !== undefined) out.push(...checkCheckpoint(s.checkpoint));
  if (s.code !== undefined) out.push(...checkCode(s.code));
  const known = ['stateBackend', 'checkpoint', 'parallelism', 'maxParallelism', 'seed', 'idleTimeoutMs', 'defaultRatePerSec', 'code', 'runtime'];
  for (const k of Object.keys(s)) if (!known.includes(k)) out.push(docProblem(`settings.${k}`, `unknown setting "${k}"; known settings: ${known.join(', ')}`, 'extra-field'));
  return out;
}

function checkCode(c: unknown): Problem[] {
  if (!isObj(c)) return [docProblem('settings.code', `"code" must be an object such as { "timeoutMs": 2000, "memoryMb": 256 }; it is ${shown(c)}`, 'bad-settings')];
  const out: Problem[] = [...intSetting(c, 'settings.code', 'timeoutMs', 1, 600_000), ...intSetting(c, 'settings.code', 'memoryMb', 16, 16_384)];
  const known = ['timeoutMs', 'memoryMb'];
  for (const k of Object.keys(c)) if (!known.includes(k)) out.push(docProblem(`settings.code.${k}`, `unknown code setting "${k}"; known: ${known.join(', ')}`, 'extra-field'));
  return out;
}

function checkCheckpoint(c: unknown): Problem[] {
  if (!isObj(c)) return [docProblem('settings.checkpoint', `"checkpoint" must be an object such as { "intervalMs": 1000 }; it is ${shown(c)}`, 'bad-settings')];
  const out: Problem[] = [...intSetting(c, 'settings.checkpoint', 'retain', 1, 2 ** 31), ...intSetting(c, 'settings.checkpoint', 'timeoutMs', 1, 2 ** 31)];
  if (!(c.intervalMs === null || (Number.isInteger(c.intervalMs) && (c.intervalMs as number) >= 10))) {
    out.unshift(docProblem('settings.checkpoint.intervalMs', `intervalMs is ${shown(c.intervalMs)}; it must be null (manual checkpoints only) or a whole number of ms ≥ 10`, 'bad-settings'));
  }
  if (c.incremental !== undefined && typeof c.incremental !== 'boolean') out.push(docProblem('settings.checkpoint.incremental', 'incremental must be true or false', 'bad-settings'));
  const known = ['intervalMs', 'retain', 'incremental', 'timeoutMs'];
  for (const k of Object.keys(c)) if (!known.includes(k)) out.push(docProblem(`settings.checkpoint.${k}`, `unknown checkpoint setting "${k}"; known: ${known.join(', ')}`, 'extra-field'));
  return out;
}
