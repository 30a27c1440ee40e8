/**
 * Flink's array and map access over Weir's json values (an ARRAY or MAP column arrives as a JSON
 * array or object, or as its JSON text): `a[i]` (1-based, as in Flink) and `m['key']`, read as the
 * call ITEM (Calcite's name for the subscript), and CARDINALITY. A missing element, an index out
 * of range and a value that is no array or map are NULL.
 */
import type { FunctionDef } from './functionKit.ts';
import { always } from './functionKit.ts';
import { jsonValue } from './fnJson.ts';
import { isNull } from './values.ts';

function item(container: unknown, at: unknown): unknown {
  if (isNull(container) || isNull(at)) return null;
  const doc = jsonValue(container);
  if (Array.isArray(doc)) {
    const i = typeof at === 'number' ? at : Number(at);
    return Number.isInteger(i) && i >= 1 && i <= doc.length ? (doc[i - 1] ?? null) : null;
  }
  if (doc !== null && typeof doc === 'object') {
    const key = String(at);
    return Object.hasOwn(doc, key) ? ((doc as Record<string, unknown>)[key] ?? null) : null;
  }
  return null;
}

function cardinality(v: unknown): number | null {
  if (isNull(v)) return null;
  const doc = jsonValue(v);
  if (Array.isArray(doc)) return doc.length;
  return doc !== null && typeof doc === 'object' ? Object.keys(doc).length : null;
}

export const COLLECTION_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  ITEM: { min: 2, max: 2, syntaxOnly: true, keywords: ['FIELD'], compile: ([c, i]) => (row) => item(c(row), i(row)), type: () => null },
  CARDINALITY: { min: 1, max: 1, compile: ([a]) => (row) => cardinality(a(row)), type: always('integer') },
};
