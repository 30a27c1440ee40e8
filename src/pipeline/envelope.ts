import type { Problem } from './kindSpec.ts';

const docProblem = (field: string, message: string, code: string): Problem => ({ target: null, targetType: 'document', field, message, code });
const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Shape checks of the document around its nodes and edges, with one message per fault. */
export function checkEnvelope(doc: unknown): Problem[] {
  if (!isObj(doc)) return [docProblem('', 'a pipeline document must be a JSON object', 'bad-document')];
  const out: Problem[] = [];
  if (typeof doc.name !== 'string' || doc.name.trim() === '') out.push(docProblem('name', 'the pipeline needs a name (a non-empty string)', 'missing-field'));
  if (!Array.isArray(doc.nodes)) out.push(docProblem('nodes', '"nodes" must be an array of nodes', 'missing-field'));
  if (!Array.isArray(doc.edges)) out.push(docProblem('edges', '"edges" must be an array of edges', 'missing-field'));
  const known = new Set(['format', 'version', 'name', 'description', 'settings', 'nodes', 'edges']);
  for (const k of Object.keys(doc)) if (!known.has(k)) out.push(docProblem(k, `unknown top-level field "${k}"`, 'extra-field'));
  if (doc.settings !== undefined) out.push(...checkSettings(doc.settings));
  if (Array.isArray(doc.nodes)) {
    doc.nodes.forEach((n, i) => {
      if (!isObj(n)) return out.push(docProblem(`nodes[${i}]`, 'a node must be an object', 'bad-node'));
      if (typeof n.id !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(n.id)) {
        out.push(docProblem(`nodes[${i}].id`, 'a node id must be a name of letters, digits, "_" or "-", starting with a letter or "_"', 'bad-id'));
      }
      if (typeof n.kind !== 'string') out.push({ target: typeof n.id === 'string' ? n.id : null, targetType: typeof n.id === 'string' ? 'node' : 'document', field: `nodes[${i}].kind`, message: 'a node needs a kind', code: 'missing-field' });
      if (!isObj(n.params)) out.push({ target: typeof n.id === 'string' ? n.id : null, targetType: typeof n.id === 'string' ? 'node' : 'document', field: 'params', message: '"params" must be an object', code: 'missing-field' });
      const nodeKeys = new Set(['id', 'kind', 'label', 'params', 'position', 'parallelism']);
      for (const k of Object.keys(n)) if (!nodeKeys.has(k)) out.push({ target: String(n.id), targetType: 'node', field: k, message: `unknown node field "${k}"`, code: 'extra-field' });
      if (n.position !== undefined && !(isObj(n.position) && typeof n.position.x === 'number' && typeof n.position.y === 'number')) {
        out.push({ target: String(n.id), targetType: 'node', field: 'position', message: 'position must be { "x": number, "y": number }', code: 'bad-field' });
      }
    });
  }
  if (Array.isArray(doc.edges)) {
    doc.edges.forEach((e, i) => {
      const ref = (r: unknown) => isObj(r) && typeof r.node === 'string' && typeof r.port === 'string';
      if (!isObj(e) || !ref(e.from) || !ref(e.to)) out.push(docProblem(`edges[${i}]`, 'an edge must be { "from": { "node", "port" }, "to": { "node", "port" } }', 'bad-edge'));
      else if (e.id !== undefined && typeof e.id !== 'string') out.push(docProblem(`edges[${i}].id`, 'an edge id must be a string', 'bad-edge'));
    });
  }
  return out;
}

function checkSettings(s: unknown): Problem[] {
  if (!isObj(s)) return [docProblem('settings', '"settings" must be an object', 'bad-settings')];
  const out: Problem[] = [];
  const int = (k: string, min: number, max: number) => {
    const v = s[k];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min && (v as number) <= max)) out.push(docProblem(`settings.${k}`, `must be a whole number from ${min} to ${max}`, 'bad-settings'));
  };
  int('parallelism', 1, 8);
  int('maxParallelism', 1, 32768);
  int('seed', 0, 2 ** 32 - 1);
  int('idleTimeoutMs', 1, 2 ** 31);
  if (s.defaultRatePerSec !== undefined && !(typeof s.defaultRatePerSec === 'number' && s.defaultRatePerSec > 0)) out.push(docProblem('settings.defaultRatePerSec', 'must be a positive number', 'bad-settings'));
  if (s.stateBackend !== undefined && s.stateBackend !== 'memory' && s.stateBackend !== 'indexeddb') out.push(docProblem('settings.stateBackend', 'must be "memory" or "indexeddb"', 'bad-settings'));
  if (s.checkpoint !== undefined) {
    const c = s.checkpoint;
    if (!isObj(c)) out.push(docProblem('settings.checkpoint', 'must be an object', 'bad-settings'));
    else if (!(c.intervalMs === null || (Number.isInteger(c.intervalMs) && (c.intervalMs as number) >= 10))) out.push(docProblem('settings.checkpoint.intervalMs', 'must be null (manual) or a whole number of ms ≥ 10', 'bad-settings'));
  }
  const known = new Set(['stateBackend', 'checkpoint', 'parallelism', 'maxParallelism', 'seed', 'idleTimeoutMs', 'defaultRatePerSec']);
  for (const k of Object.keys(s)) if (!known.has(k)) out.push(docProblem(`settings.${k}`, `unknown setting "${k}"`, 'extra-field'));
  return out;
}
