import type { PipelineDocument } from './document.ts';
import type { JsonSchema } from './kindSpec.ts';
import { kindSpec } from './kinds/index.ts';

/** One piece of user code in the document: which node, which param path, what text. */
export interface UdfSite {
  nodeId: string;
  kind: string;
  /** Path under params, such as `code` or `aggregates[1].code`. */
  param: string;
  code: string;
}

function walk(schema: JsonSchema | undefined, value: unknown, path: string, out: (param: string, code: string) => void): void {
  if (!schema || value === undefined || value === null) return;
  if (schema['x-weir-code'] && typeof value === 'string') return out(path, value);
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    value.forEach((v, i) => walk(schema.items as JsonSchema, v, `${path}[${i}]`, out));
    return;
  }
  if (typeof value === 'object' && schema.properties) {
    for (const [k, s] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      walk(s, (value as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
    }
  }
}

/** Every non-empty code param of every node, found through the kind's params schema. */
export function udfSites(doc: Pick<PipelineDocument, 'nodes'> | { nodes: readonly { id: string; kind: string; params: Record<string, unknown> }[] }): UdfSite[] {
  const sites: UdfSite[] = [];
  for (const n of doc.nodes) {
    const spec = kindSpec(n.kind);
    if (!spec) continue;
    walk(spec.params, n.params, '', (param, code) => {
      if (code.trim()) sites.push({ nodeId: n.id, kind: n.kind, param, code });
    });
  }
  return sites;
}

/** Code that arrived from elsewhere must be trusted before it runs. */
export const carriesCode = (doc: PipelineDocument): boolean => udfSites(doc).length > 0;
