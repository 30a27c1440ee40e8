/**
 * What a CREATE TABLE says of a collection column's elements, for UNNEST: `ARRAY<STRING>`,
 * `ARRAY<ROW<sku STRING, qty INT>>` (or `ROW(…)`), `MAP<STRING, INT>`. Weir keeps such a column
 * as json; the element types name the unnested columns' types and a row's fields their order.
 */
import type { FieldType } from '../../../core/streamInfo.ts';

export interface Collection {
  /** A row element's field names, in declared order; null for scalars and maps. */
  names: string[] | null;
  /** The element's type (an array of scalars), its fields' (an array of rows), or key and value (a map). */
  types: FieldType[];
}

const SCALARS: [RegExp, FieldType][] = [
  [/^(STRING|VARCHAR|CHAR)\b/, 'string'],
  [/^(BIGINT|INT|INTEGER|SMALLINT|TINYINT)\b/, 'integer'],
  [/^(DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC|DEC)\b/, 'number'],
  [/^BOOLEAN\b/, 'boolean'],
  [/^TIMESTAMP(_LTZ)?\b/, 'timestamp'],
  [/^DATE$/, 'string'],
  // A TIME is its 'HH:mm:ss' text, as a DATE is its 'yyyy-MM-dd' text: ordered as text, it orders as time.
  [/^TIME(\s*\(\s*\d+\s*\))?$/, 'string'],
  [/^(ROW|MAP|ARRAY|MULTISET)\b/, 'json'],
];

/** Weir's type of a Flink type's text, or null when Weir has none. */
export function fieldTypeOfText(text: string): FieldType | null {
  const t = text.trim().replace(/\s+NOT\s+NULL$/i, '').toUpperCase();
  return SCALARS.find(([re]) => re.test(t))?.[1] ?? null;
}

/** Splits at top-level commas (not inside <…>, (…) or backticks). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '`') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out.map((x) => x.trim()).filter((x) => x.length > 0);
}

/** `ROW<a T, b T>` / `ROW(a T, b T)`: the fields, or null when the text is not a row type. */
function rowFields(text: string): { names: string[]; types: FieldType[] } | null {
  const m = /^ROW\s*[<(]([\s\S]*)[>)]$/i.exec(text.trim());
  if (!m) return null;
  const names: string[] = [];
  const types: FieldType[] = [];
  for (const f of splitTop(m[1])) {
    const field = /^(`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*)\s+([\s\S]+?)(\s+COMMENT\s+'(?:[^']|'')*')?$/i.exec(f);
    if (!field) return null;
    names.push(field[1].startsWith('`') ? field[1].slice(1, -1).replace(/``/g, '`') : field[1]);
    types.push(fieldTypeOfText(field[2]) ?? 'json');
  }
  return { names, types };
}

/** The elements of an ARRAY or MAP type's text, or null for any other type. */
export function collectionOf(typeText: string): Collection | null {
  const text = typeText.trim().replace(/\s+NOT\s+NULL$/i, '');
  const array = /^ARRAY\s*<([\s\S]*)>$/i.exec(text);
  if (array) {
    const row = rowFields(array[1]);
    return row ? { names: row.names, types: row.types } : { names: null, types: [fieldTypeOfText(array[1]) ?? 'json'] };
  }
  const map = /^MAP\s*<([\s\S]*)>$/i.exec(text);
  if (map) {
    const kv = splitTop(map[1]);
    if (kv.length !== 2) return null;
    return { names: null, types: kv.map((t) => fieldTypeOfText(t) ?? 'json') };
  }
  return null;
}
