import type { KindSpec } from '../../pipeline/kindSpec.ts';
import { t } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';
import { isVisible } from '../inspector/fields/fieldTypes.ts';

const short = (v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') return v.length > 36 ? `${v.slice(0, 35)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'string')) return v.join(', ') || null;
    return plural(t, 'canvas.items', v.length);
  }
  return null;
};

/** Up to two `name: value` lines that tell nodes of one kind apart at a glance; code is left out. */
export function paramSummary(spec: KindSpec, params: Record<string, unknown>): string[] {
  const props = (spec.params.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: string[] = [];
  for (const [name, schema] of Object.entries(props)) {
    // A field the form hides for these params (a hop slide on a tumble window) is not worth a line either.
    if (!isVisible(schema, params, false)) continue;
    if (schema['x-weir-code']) {
      if (typeof params[name] === 'string' && params[name]) out.push(`${name}: ${t('canvas.code')}`);
      continue;
    }
    const s = short(params[name]);
    if (s !== null) out.push(`${name}: ${s}`);
    if (out.length >= 2) break;
  }
  return out;
}
