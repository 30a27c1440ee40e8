import Papa from 'papaparse';
import type { FieldType } from '../../core/streamInfo.ts';
import type { FileFormat } from '../../pipeline/kinds/fileSource.ts';
import { fileFormatOf } from '../../pipeline/kinds/fileSource.ts';
import type { RawRecord, SourceReader } from '../../core/source.ts';
import { jsonLinesReader } from '../../core/source.ts';
import { CsvReader } from './csvReader.ts';
import { JsonArrayReader } from './jsonArrayReader.ts';
import { guessTimeField, inferJsonTypes } from './inferTypes.ts';

/** How much of a file is read to infer its types: enough for 200 records of any sane width. */
export const SAMPLE_BYTES = 256 * 1024;

export interface FileSample {
  format: FileFormat;
  /** CSV only. */
  delimiter?: string;
  schema: Record<string, FieldType>;
  /** The likely event-time field, or '' when none looks like one. */
  timeField: string;
  /** Records read in the sample, and the bad lines among them (1-based). */
  records: number;
  bad: { line: number; reason: string }[];
}

/**
 * Reads the start of a file (its first SAMPLE_BYTES, or all of it when `whole`) the way the
 * source will read it, and infers the field types from the first 200 records. A sample cut in
 * the middle of a line drops that last line; a JSON array's last element may be cut off too,
 * and its error is not reported.
 */
export function sampleFile(name: string, text: string, whole: boolean): FileSample {
  const body = whole ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  const first = lines.find((l) => l.trim() !== '') ?? '';
  const format = fileFormatOf({}, name) === 'jsonl' && first.trim().startsWith('[') ? 'json' : fileFormatOf({}, name);
  if (format === 'csv') {
    const delimiter = /\.tsv$/i.test(name) || first.includes('\t') ? '\t' : Papa.parse(first, { preview: 1 }).meta.delimiter || ',';
    const reader = new CsvReader(lines, { delimiter });
    const { records, bad } = drain(reader, 200);
    const schema = reader.types as Record<string, FieldType>;
    return { format, ...(delimiter !== ',' ? { delimiter } : {}), schema, timeField: guessTimeField(schema), records, bad };
  }
  const reader = format === 'json' ? new JsonArrayReader(lines) : jsonLinesReader(lines);
  const rows: Record<string, unknown>[] = [];
  const { records, bad } = drain(reader, 200, (r) => {
    if (r.value !== null && typeof r.value === 'object' && !Array.isArray(r.value)) rows.push(r.value as Record<string, unknown>);
  });
  // A cut JSON array ends in an unclosed element: that is the sample's end, not a bad line.
  const kept = whole || format !== 'json' ? bad : bad.filter((b) => !/not closed/.test(b.reason));
  const schema = inferJsonTypes(rows);
  return { format, schema, timeField: guessTimeField(schema), records: records - (bad.length - kept.length), bad: kept };
}

function drain(reader: SourceReader, max: number, each?: (r: RawRecord) => void): { records: number; bad: FileSample['bad'] } {
  let records = 0;
  const bad: FileSample['bad'] = [];
  while (!reader.done() && records < max) {
    for (const r of reader.read(max - records)) {
      records++;
      if (r.error) bad.push({ line: r.line ?? 0, reason: r.error });
      else each?.(r);
    }
  }
  return { records, bad };
}
