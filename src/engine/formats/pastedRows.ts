import Papa from 'papaparse';
import type { FieldType } from '../../core/streamInfo.ts';
import { safeJsonParse } from '../../core/source.ts';
import { CsvReader } from './csvReader.ts';

export interface PastedRows {
  format: 'json' | 'jsonl' | 'csv' | 'tsv';
  rows: Record<string, unknown>[];
  /** Inferred types, for the person to confirm. */
  schema: Record<string, FieldType>;
  /** Lines that could not be read, with their 1-based line number. */
  errors: { line: number; reason: string }[];
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function jsonType(values: unknown[]): FieldType {
  const seen = values.filter((v) => v !== null && v !== undefined);
  if (!seen.length) return 'string';
  if (seen.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'integer';
  if (seen.every((v) => typeof v === 'number')) return 'number';
  if (seen.every((v) => typeof v === 'boolean')) return 'boolean';
  if (seen.every((v) => typeof v === 'string')) return 'string';
  return 'json';
}

/**
 * Rows pasted as text: a JSON array, JSON Lines, or CSV/TSV with a header (the delimiter is
 * guessed by papaparse). CSV cells get inferred types; JSON values keep theirs.
 */
export function parsePastedRows(text: string): PastedRows {
  const trimmed = text.trim();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const errors: PastedRows['errors'] = [];
    let rows: Record<string, unknown>[] = [];
    if (trimmed.startsWith('[')) {
      try {
        const arr = safeJsonParse(trimmed);
        if (Array.isArray(arr)) rows = arr.filter(isObj);
        else errors.push({ line: 1, reason: 'expected a JSON array of objects' });
      } catch (e) {
        errors.push({ line: 1, reason: `not valid JSON: ${(e as Error).message}` });
      }
    } else {
      lines.forEach((l, i) => {
        if (!l.trim()) return;
        try {
          const v = safeJsonParse(l);
          if (isObj(v)) rows.push(v);
          else errors.push({ line: i + 1, reason: 'a record must be a JSON object' });
        } catch (e) {
          errors.push({ line: i + 1, reason: `not valid JSON: ${(e as Error).message}` });
        }
      });
    }
    const keys = [...new Set(rows.slice(0, 200).flatMap((r) => Object.keys(r)))];
    const schema = Object.fromEntries(keys.map((k) => [k, jsonType(rows.slice(0, 200).map((r) => r[k]))])) as Record<string, FieldType>;
    return { format: trimmed.startsWith('[') ? 'json' : 'jsonl', rows, schema, errors };
  }
  const first = lines.find((l) => l.trim() !== '') ?? '';
  const delimiter = first.includes('\t') ? '\t' : (Papa.parse(first, { preview: 1 }).meta.delimiter || ',');
  const reader = new CsvReader(lines, { delimiter });
  const rows: Record<string, unknown>[] = [];
  const errors: PastedRows['errors'] = [];
  while (!reader.done()) {
    for (const r of reader.read(1000)) {
      if (r.error) errors.push({ line: r.line ?? 0, reason: r.error });
      else rows.push(r.value as Record<string, unknown>);
    }
  }
  // Inferred timestamps stay ISO text in the rows; the source turns them into epoch ms.
  return { format: delimiter === '\t' ? 'tsv' : 'csv', rows, schema: reader.types as Record<string, FieldType>, errors };
}
