import type { JsonSchema } from '../../pipeline/kindSpec.ts';
import { kindSpecs } from '../../pipeline/kinds/index.ts';

// Kept apart from i18n.ts: the kinds message area is built from this at load time, before t() exists.

/** `params.aggregates[2].fn` → `param.window.aggregates[].fn`: one key for every row of a list. */
export const paramKey = (kind: string, path: string): string => `param.${kind}.${path.replace(/^params\./, '').replace(/\[\d+\]/g, '[]')}`;

/** Every param description of every kind, by message key, in English: the source of the kinds message area. */
export function paramDescriptions(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (kind: string, path: string, s: JsonSchema | undefined): void => {
    if (!s || typeof s !== 'object') return;
    if (typeof s.description === 'string' && path) out[paramKey(kind, path)] = s.description;
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) walk(kind, path ? `${path}.${k}` : k, v);
    if (s.items && typeof s.items === 'object') walk(kind, `${path}[]`, s.items as JsonSchema);
    // A map's entries share one description per field: `columns.*.min`.
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(kind, `${path}.*`, s.additionalProperties as JsonSchema);
    for (const alt of (Array.isArray(s.oneOf) ? s.oneOf : []) as JsonSchema[]) walk(kind, path, alt);
  };
  for (const spec of kindSpecs) walk(spec.kind, '', spec.params);
  return out;
}
