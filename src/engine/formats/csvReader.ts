import Papa from 'papaparse';
import type { RawRecord, SourceReader } from '../../core/source.ts';
import { cellValue, inferColumns } from './inferTypes.ts';
import type { LineSource } from '../../core/lineSource.ts';
import { arrayLines } from '../../core/lineSource.ts';

export interface CsvOptions {
  delimiter: string;
  /** Declared field types; without them, types are inferred from the first rows. */
  schema?: Record<string, string>;
}

/** Whether a CSV line leaves a quoted field open (RFC 4180: a quote opens a field only at its start). */
export function endsInsideQuotes(line: string, delimiter: string, inside: boolean): boolean {
  let atFieldStart = !inside;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inside) {
      if (c === '"') {
        if (line[i + 1] === '"') i++;
        else inside = false;
      }
    } else if (c === '"' && atFieldStart) inside = true;
    else atFieldStart = line.startsWith(delimiter, i);
  }
  return inside;
}

interface Pending {
  text: string;
  line: number;
  error?: string;
}

/** Header names made unique and non-empty, so every cell has a field to go to. */
function fieldNames(cells: readonly string[]): string[] {
  const used = new Set<string>();
  return cells.map((c, i) => {
    let name = c.trim() || `column_${i + 1}`;
    for (let n = 2; used.has(name); n++) name = `${c.trim() || `column_${i + 1}`}_${n}`;
    used.add(name);
    return name;
  });
}

/**
 * Reads CSV with a header from lines. Offsets count lines (a quoted field may span several),
 * so a restore replays exactly the lines after the checkpoint. Parsing is papaparse's, one call
 * per batch; this file only finds where records start so that each keeps its line number.
 */
export class CsvReader implements SourceReader {
  readonly header: string[];
  readonly types: Record<string, string>;
  private readonly bodyStart: number;
  private pos: number;
  private readonly lines: LineSource;

  constructor(
    input: readonly string[] | LineSource,
    private readonly opts: CsvOptions,
  ) {
    const lines = Array.isArray(input) ? arrayLines(input) : (input as LineSource);
    this.lines = lines;
    let at = 0;
    while (lines.line(at)?.trim() === '') at++;
    const first = lines.line(at) !== undefined ? this.take(at) : null;
    this.bodyStart = first ? first.next : at;
    this.header = first ? fieldNames(this.parse([first.rec])[0] ?? []) : [];
    this.pos = this.bodyStart;
    this.types = opts.schema ?? this.sampleTypes();
  }

  private sampleTypes(): Record<string, string> {
    const sample: Pending[] = [];
    let at = this.bodyStart;
    for (let l = this.lines.line(at); l !== undefined && sample.length < 200; l = this.lines.line(at)) {
      if (l.trim() === '') {
        at++;
        continue;
      }
      const t = this.take(at);
      if (!t.rec.error) sample.push(t.rec);
      at = t.next;
    }
    return inferColumns(this.header, this.parse(sample));
  }

  /** The record starting at line index `at`: its text and the index after it. */
  private take(at: number): { rec: Pending; next: number } {
    const d = this.opts.delimiter;
    let text = this.lines.line(at) ?? '';
    let open = text.includes('"') && endsInsideQuotes(text, d, false);
    let next = at + 1;
    for (let l = open ? this.lines.line(next) : undefined; l !== undefined; l = open ? this.lines.line(next) : undefined) {
      next++;
      text += '\n' + l;
      open = endsInsideQuotes(l, d, true);
    }
    return { rec: { text, line: at + 1, ...(open ? { error: `a quoted field opened on line ${at + 1} is never closed` } : {}) }, next };
  }

  private parse(recs: readonly Pending[]): string[][] {
    if (!recs.length) return [];
    const res = Papa.parse<string[]>(recs.map((r) => r.text).join('\n'), { delimiter: this.opts.delimiter, header: false, skipEmptyLines: false });
    // One batch call is what makes ingest fast; if papaparse saw the records differently, go one by one.
    if (res.data.length === recs.length) return res.data;
    return recs.map((r) => Papa.parse<string[]>(r.text, { delimiter: this.opts.delimiter, header: false }).data[0] ?? []);
  }

  read(max: number): RawRecord[] {
    const recs: Pending[] = [];
    for (let l = this.lines.line(this.pos); l !== undefined && recs.length < max; l = this.lines.line(this.pos)) {
      if (l.trim() === '') {
        this.pos++;
        continue;
      }
      const t = this.take(this.pos);
      recs.push(t.rec);
      this.pos = t.next;
    }
    const good = recs.filter((r) => !r.error);
    const rows = this.parse(good);
    const out: RawRecord[] = [];
    const n = this.header.length;
    let g = 0;
    for (const r of recs) {
      if (r.error) {
        out.push({ raw: r.text, line: r.line, error: r.error });
        continue;
      }
      const cells = rows[g++];
      if (cells.length !== n) {
        out.push({ raw: r.text, line: r.line, error: `expected ${n} fields (as in the header), got ${cells.length}` });
        continue;
      }
      const value: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) value[this.header[i]] = cellValue(cells[i], this.types[this.header[i]]);
      out.push({ value, raw: r.text, line: r.line });
    }
    return out;
  }

  done(): boolean {
    return this.lines.line(this.pos) === undefined;
  }

  offset(): number {
    return this.pos;
  }

  position(): { line: number; byte: number } | undefined {
    return this.lines.position?.(this.pos);
  }

  seek(o: number, at?: { line: number; byte: number }): void {
    if (at) this.lines.hint?.(at);
    this.pos = Math.max(this.bodyStart, o);
  }
}
