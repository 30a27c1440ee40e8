import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import type { Row } from '../../core/types.ts';

/** The fields a pull query asks for: the view's primary key, else the key its input declares. */
export function queryKeyFields(params: Record<string, unknown> | undefined, input: StreamInfo | undefined): string[] {
  const pk = params?.primaryKey;
  if (Array.isArray(pk) && pk.length && pk.every((f) => typeof f === 'string')) return pk as string[];
  return input?.uniqueKey ?? [];
}

/**
 * Turns the text typed per key field into a key row, typed by the field's declared type. Returns
 * the problems (field + what to type) instead of guessing when a value does not fit.
 */
export function parseKeyInput(values: Record<string, string>, fields: string[], types: Record<string, FieldType> | null): { key: Row | null; problems: { field: string; message: string }[] } {
  const key: Row = {};
  const problems: { field: string; message: string }[] = [];
  for (const f of fields) {
    const raw = (values[f] ?? '').trim();
    if (raw === '') {
      problems.push({ field: f, message: 'empty' });
      continue;
    }
    const type = types?.[f];
    if (type === 'number' || type === 'integer' || type === 'timestamp') {
      const n = Number(raw);
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) problems.push({ field: f, message: type === 'integer' ? 'integer' : 'number' });
      else key[f] = n;
    } else if (type === 'boolean') {
      if (raw !== 'true' && raw !== 'false') problems.push({ field: f, message: 'boolean' });
      else key[f] = raw === 'true';
    } else if (type === undefined || type === 'json') {
      // Unknown type: numbers as numbers, anything else as text, as a person would mean it.
      key[f] = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    } else key[f] = raw;
  }
  return { key: problems.length ? null : key, problems };
}

/** True when `row` has every field of `key` with the same value; a null key matches every row. */
export const matchesKey = (row: Row, key: Row | null): boolean => !key || Object.entries(key).every(([f, v]) => row[f] === v);
