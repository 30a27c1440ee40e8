import Papa from 'papaparse';
import type { FieldType } from '../../core/streamInfo.ts';
import { safeJsonParse, unparsedReason } from '../../core/source.ts';
import { CsvReader } from './csvReader.ts';
import { inferJsonTypes } from './inferTypes.ts';
import { JsonArrayReader } from './jsonArrayReader.ts';

export interface PastedRows {
  format: 'json' | 'jsonl' | 'csv' | 'tsv';
  rows: Record<string, unknown>[];
  /** Inferred types, for the person to confirm. */
  schema: Record<string, FieldType>;
  /** Lines that could not be read, with their 1-based line number. */
  errors: { line: number; reason: string }[];
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Rows pasted as text: a JSON array, JSON Lines, or CSV/TSV with a header (the delimiter is
 * guessed by papaparse). CSV cells get inferred types; JSON values keep theirs.
 */
export function parsePastedRows(text: string): PastedRows {
  const trimmed = text.trim();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const errors: PastedRows['errors'] = [];
    const rows: Record<string, unknown>[] = [];
    if (trimmed.startsWith('[')) {
      // Element by element, so one bad element is reported with its line and the others are kept.
      const reader = new JsonArrayReader(lines);
      while (!reader.done()) {
        for (const r of reader.read(1000)) {
          if (r.error) errors.push({ line: r.line ?? 1, reason: r.error });
          else if (isObj(r.value)) rows.push(r.value);
          else errors.push({ line: r.line ?? 1, reason: 'a record must be a JSON object' });
        }
      }
    } else {
      lines.forEach((l, i) => {
        if (!l.trim()) return;
        try {
          const v = safeJsonParse(l);
          if (isObj(v)) rows.push(v);
          else errors.push({ line: i + 1, reason: 'a record must be a JSON object' });
        } catch (e) {
          errors.push({ line: i + 1, reason: unparsedReason(e) });
        }
      });
    }
    const schema = inferJsonTypes(rows);
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
