import type { FieldType } from '../../core/streamInfo.ts';

const INTEGER = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;
// ISO-8601 date or date-time, the text form SourceTask turns into epoch ms.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[-+]\d{2}:?\d{2})?)?$/;

/** The narrowest type that fits every non-empty text value of a column (empty cells are NULL). */
export function inferTextType(values: readonly string[]): FieldType {
  let seen = false;
  let integer = true;
  let number = true;
  let boolean = true;
  let time = true;
  for (const v of values) {
    if (v === '') continue;
    seen = true;
    if (integer && !(INTEGER.test(v) && Number.isSafeInteger(Number(v)))) integer = false;
    if (number && !NUMBER.test(v)) number = false;
    if (boolean && !BOOLEAN.test(v)) boolean = false;
    if (time && !(ISO_TIME.test(v) && !Number.isNaN(Date.parse(v)))) time = false;
    if (!integer && !number && !boolean && !time) return 'string';
  }
  if (!seen) return 'string';
  return integer ? 'integer' : number ? 'number' : boolean ? 'boolean' : time ? 'timestamp' : 'string';
}

/** Field types of a table of text cells (CSV), from its first `sample` rows. */
export function inferColumns(header: readonly string[], rows: readonly (readonly string[])[], sample = 200): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  const head = rows.slice(0, sample);
  header.forEach((h, i) => {
    out[h] = inferTextType(head.map((r) => r[i] ?? ''));
  });
  return out;
}

/**
 * A text cell as a value of its declared type. A cell that does not fit stays text, so the
 * source's type check dead-letters the record and says which field and value.
 */
export function cellValue(text: string, type: string | undefined): unknown {
  if (type === undefined || type === 'string') return text;
  if (text === '') return null;
  switch (type) {
    case 'integer':
    case 'number':
      return NUMBER.test(text) ? Number(text) : text;
    case 'boolean':
      return BOOLEAN.test(text) ? text.toLowerCase() === 'true' : text;
    case 'timestamp':
      // Epoch milliseconds as digits, or ISO text that the source normalizes.
      return INTEGER.test(text) ? Number(text) : text;
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}
