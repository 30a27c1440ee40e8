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

/** Names that say a column holds a time; with whole numbers in the epoch-ms range it is a timestamp. */
const TIME_NAME = /(^|_)(ts|time|timestamp|date|datetime|at)$|(Time|At|Ts)$/;
/** 1973-03-03 to 5138-11-16 in epoch milliseconds: smaller whole numbers are more likely counts or seconds. */
const EPOCH_MS = { min: 1e11, max: 1e14 };

function isEpochMsColumn(name: string, values: readonly string[]): boolean {
  if (!TIME_NAME.test(name)) return false;
  const seen = values.filter((v) => v !== '');
  return seen.length > 0 && seen.every((v) => Number(v) >= EPOCH_MS.min && Number(v) <= EPOCH_MS.max);
}

/**
 * Field types of a table of text cells (CSV), from its first `sample` rows. A column of whole
 * numbers in the epoch-ms range whose name says time (ts, created_at, eventTime) is a timestamp.
 */
export function inferColumns(header: readonly string[], rows: readonly (readonly string[])[], sample = 200): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  const head = rows.slice(0, sample);
  header.forEach((h, i) => {
    const values = head.map((r) => r[i] ?? '');
    const type = inferTextType(values);
    out[h] = type === 'integer' && isEpochMsColumn(h, values) ? 'timestamp' : type;
  });
  return out;
}

/** Field types of JSON records (their values keep their JSON types), from the first `sample`. */
export function inferJsonTypes(rows: readonly Record<string, unknown>[], sample = 200): Record<string, FieldType> {
  const head = rows.slice(0, sample);
  const keys = [...new Set(head.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, jsonType(k, head.map((r) => r[k]))]));
}

function jsonType(name: string, values: unknown[]): FieldType {
  const seen = values.filter((v) => v !== null && v !== undefined);
  if (!seen.length) return 'string';
  if (seen.every((v) => typeof v === 'number' && Number.isInteger(v))) return isEpochMsColumn(name, seen.map(String)) ? 'timestamp' : 'integer';
  if (seen.every((v) => typeof v === 'number')) return 'number';
  if (seen.every((v) => typeof v === 'boolean')) return 'boolean';
  if (seen.every((v) => typeof v === 'string')) return seen.every((v) => ISO_TIME.test(v as string) && !Number.isNaN(Date.parse(v as string))) ? 'timestamp' : 'string';
  return 'json';
}

/** The field a person most likely means as event time: the first timestamp, else a time-like name. */
export function guessTimeField(schema: Record<string, string>): string {
  return Object.entries(schema).find(([, ty]) => ty === 'timestamp')?.[0] ?? Object.keys(schema).find((k) => /^(ts|time|timestamp|event_time)$/i.test(k)) ?? '';
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
