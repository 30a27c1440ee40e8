import Papa from 'papaparse';
import type { RawRecord } from '../../core/source.ts';
import { safeJsonParse, unparsedReason } from '../../core/source.ts';
import { cellValue } from './inferTypes.ts';
import { parseJsonPath } from '../../core/jsonPath.ts';
import type { FeedFormat } from '../../pipeline/kinds/feedSource.ts';

/** How to decode a feed's messages (the formats are described with `FeedFormat`). */
export interface FeedDecodeOptions {
  format: FeedFormat;
  /** `$.data.items`: where the records sit in each JSON message (json, jsonArray, ndjson). */
  path?: string;
  /** csv: the field name of each cell, in order. */
  columns?: readonly string[];
  /** csv: default comma. */
  delimiter?: string;
  /** Declared field types: csv cells become them. */
  schema?: Record<string, string>;
}

/** Longest raw text a dead letter keeps of a message: a huge frame must not fill the log. */
const RAW_MAX = 2000;

const clip = (s: string): string => (s.length > RAW_MAX ? `${s.slice(0, RAW_MAX)}… (${s.length} characters)` : s);

function select(value: unknown, steps: readonly (string | number)[]): { value: unknown } | { error: string } {
  let v = value;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    const ok = typeof s === 'number' ? Array.isArray(v) && s < v.length : v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, s);
    if (!ok) return { error: `the JSON path has nothing at ${pathText(steps.slice(0, i + 1))}` };
    v = (v as Record<string | number, unknown>)[s];
  }
  return { value: v };
}

const pathText = (steps: readonly (string | number)[]): string => '$' + steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');

/**
 * Turns the messages of a live feed into raw records. Every record carries its message number
 * (`line`, 1-based over the whole feed) and the message text, so a bad one is a dead letter that
 * says which message it was. Never throws.
 */
export class FeedDecoder {
  private readonly steps: (string | number)[];

  constructor(private readonly opts: FeedDecodeOptions) {
    const steps = parseJsonPath(opts.path ?? '');
    // An unreadable path is refused by validation; here it only must not throw.
    this.steps = typeof steps === 'string' ? [] : steps;
  }

  decode(text: string, message: number): RawRecord[] {
    const raw = clip(text);
    const bad = (error: string): RawRecord[] => [{ raw, line: message, error: `message ${message}: ${error}` }];
    if (this.opts.format === 'csv') return this.csv(text, message, raw, bad);
    if (this.opts.format === 'ndjson') {
      const out: RawRecord[] = [];
      for (const l of text.split(/\r?\n/)) if (l.trim() !== '') out.push(...this.json(l, message, clip(l), false));
      return out;
    }
    return this.json(text, message, raw, this.opts.format === 'jsonArray');
  }

  private json(text: string, message: number, raw: string, mustBeArray: boolean): RawRecord[] {
    let parsed: unknown;
    try {
      parsed = safeJsonParse(text);
    } catch (e) {
      return [{ raw, line: message, error: `message ${message}: ${unparsedReason(e)}` }];
    }
    const sel = select(parsed, this.steps);
    if ('error' in sel) return [{ raw, line: message, error: `message ${message}: ${sel.error}` }];
    const v = sel.value;
    if (Array.isArray(v)) return v.map((value) => ({ value, raw, line: message }));
    if (mustBeArray) return [{ raw, line: message, error: `message ${message}: expected a JSON array of records${this.steps.length ? ` at ${pathText(this.steps)}` : ''}, got ${v === null ? 'null' : typeof v}` }];
    return [{ value: v, raw, line: message }];
  }

  private csv(text: string, message: number, raw: string, bad: (e: string) => RawRecord[]): RawRecord[] {
    const cols = this.opts.columns ?? [];
    if (!cols.length) return bad('a CSV feed needs its columns declared (params.columns)');
    const res = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: this.opts.delimiter ?? ',', header: false, skipEmptyLines: true });
    if (res.errors.length) return bad(`not valid CSV: ${res.errors[0].message}`);
    const out: RawRecord[] = [];
    for (const cells of res.data) {
      if (cells.length !== cols.length) {
        out.push({ raw: clip(cells.join(this.opts.delimiter ?? ',')), line: message, error: `message ${message}: expected ${cols.length} fields (${cols.join(', ')}), got ${cells.length}` });
        continue;
      }
      const value: Record<string, unknown> = {};
      for (let i = 0; i < cols.length; i++) value[cols[i]] = cellValue(cells[i], this.opts.schema?.[cols[i]]);
      out.push({ value, raw, line: message });
    }
    return out;
  }
}
