import type { DeadLetter, Element, Row } from './types.ts';
import type { CommonSourceParams, SourceReader } from './source.ts';
import { MIN_WATERMARK } from './types.ts';

export interface SourcePoll {
  elements: Element[];
  deadLetters: DeadLetter[];
  /** The new watermark, when this batch advanced it. */
  watermark: number | null;
  done: boolean;
}

export interface SourceTaskSnapshot {
  offset: number;
  maxTs: number;
  watermark: number;
}

/**
 * Turns raw records into elements: checks declared field types, extracts event time,
 * and generates bounded-out-of-orderness watermarks (Flink: max seen − bound − 1).
 */
export class SourceTask {
  private maxTs = MIN_WATERMARK;
  private wm = MIN_WATERMARK;
  private readonly timeField: string | null;
  private readonly bound: number;
  private readonly typed: [string, string][];

  constructor(
    readonly nodeId: string,
    private readonly reader: SourceReader,
    params: CommonSourceParams,
  ) {
    this.timeField = params.eventTime?.field ?? null;
    this.bound = params.eventTime?.maxOutOfOrdernessMs ?? 0;
    this.typed = Object.entries(params.schema ?? {});
  }

  watermark(): number {
    return this.wm;
  }

  done(): boolean {
    return this.reader.done();
  }

  offset(): number {
    return this.reader.offset();
  }

  poll(max: number): SourcePoll {
    const raws = this.reader.read(max);
    const elements: Element[] = [];
    const deadLetters: DeadLetter[] = [];
    for (const r of raws) {
      const bad = (reason: string) => deadLetters.push({ nodeId: this.nodeId, reason, row: r.value, line: r.line, raw: r.raw });
      if (r.error) {
        bad(r.error);
        continue;
      }
      const v = r.value;
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        bad('a record must be a JSON object');
        continue;
      }
      const row = v as Row;
      const typeError = this.checkTypes(row);
      if (typeError) {
        bad(typeError);
        continue;
      }
      let ts: number | null = null;
      if (this.timeField) {
        ts = row[this.timeField] as number | null;
        if (typeof ts !== 'number' || !Number.isFinite(ts)) {
          bad(`no event time: field "${this.timeField}" is missing or not a timestamp`);
          continue;
        }
        if (ts > this.maxTs) this.maxTs = ts;
      }
      elements.push({ kind: '+I', row, ts });
    }
    let watermark: number | null = null;
    const done = this.reader.done();
    const next = done ? Infinity : this.timeField ? this.maxTs - this.bound - 1 : MIN_WATERMARK;
    if (next > this.wm) {
      this.wm = next;
      watermark = next;
    }
    return { elements, deadLetters, watermark, done };
  }

  /** Checks declared types; timestamps may arrive as ISO text and are normalized to epoch ms. */
  private checkTypes(row: Row): string | null {
    for (const [f, type] of this.typed) {
      const x = row[f];
      if (x === undefined || x === null) {
        if (f === this.timeField) continue;
        row[f] = null;
        continue;
      }
      switch (type) {
        case 'string':
          if (typeof x !== 'string') return `field "${f}": expected string, got ${describe(x)}`;
          break;
        case 'number':
          if (typeof x !== 'number' || !Number.isFinite(x)) return `field "${f}": expected number, got ${describe(x)}`;
          break;
        case 'integer':
          if (typeof x !== 'number' || !Number.isInteger(x)) return `field "${f}": expected integer, got ${describe(x)}`;
          break;
        case 'boolean':
          if (typeof x !== 'boolean') return `field "${f}": expected boolean, got ${describe(x)}`;
          break;
        case 'timestamp': {
          if (typeof x === 'number' && Number.isFinite(x)) break;
          const parsed = typeof x === 'string' ? Date.parse(x) : NaN;
          if (Number.isNaN(parsed)) return `field "${f}": expected a timestamp (epoch ms or ISO-8601 text), got ${describe(x)}`;
          row[f] = parsed;
          break;
        }
        default:
          break;
      }
    }
    return null;
  }

  snapshot(): SourceTaskSnapshot {
    return { offset: this.reader.offset(), maxTs: this.maxTs, watermark: this.wm };
  }

  restore(s: SourceTaskSnapshot): void {
    this.reader.seek(s.offset);
    this.maxTs = s.maxTs;
    this.wm = s.watermark;
  }
}

function describe(x: unknown): string {
  if (typeof x === 'string') return `"${x.length > 40 ? x.slice(0, 40) + '…' : x}" (string)`;
  return `${JSON.stringify(x)} (${Array.isArray(x) ? 'array' : typeof x})`;
}
