import type { DeadLetter, Element, Row } from '../core/types.ts';
import type { CommonSourceParams, RawRecord, SourcePosition, SourceReader } from '../core/source.ts';
import { MIN_WATERMARK } from '../core/types.ts';
import { ChangelogDecoder } from '../core/changelogDecoder.ts';
import { compileExpr } from '../expr/index.ts';
import { packOrigin } from '../core/origin.ts';
import { compiledFunction } from '../core/objectLiteral.ts';

export interface SourcePoll {
  elements: Element[];
  deadLetters: DeadLetter[];
  /** The new watermark, when this batch advanced it. */
  watermark: number | null;
  done: boolean;
}

export interface SourceTaskSnapshot {
  offset: number;
  /** Where the offset lies in a file read in blocks, so a restore jumps there instead of scanning. */
  at?: SourcePosition;
  maxTs: number;
  watermark: number;
  /** The latest row per primary key of a normalized changelog source. */
  changelogTable?: [string, Row][];
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
  /** The declared types as one compiled check of named fields (see typeCheckOf); null where it cannot be compiled. */
  private readonly passesTypes: ((row: Row) => boolean) | null;
  private readonly decoder: ChangelogDecoder | null;
  /** eventTime.expr: computes the time field of each record (a SQL computed column). */
  private readonly computeTime: ((row: Row) => unknown) | null;

  /**
   * `slot`: this source's index among the plan's sources, given when records should carry the
   * line they were read from (Element.at: the pipeline runs user code, whose errors name it).
   */
  constructor(
    readonly nodeId: string,
    private readonly reader: SourceReader,
    params: CommonSourceParams,
    private readonly slot?: number,
  ) {
    this.timeField = params.eventTime?.field ?? null;
    this.bound = params.eventTime?.maxOutOfOrdernessMs ?? 0;
    this.typed = Object.entries(params.schema ?? {});
    this.passesTypes = typeCheckOf(this.typed, this.timeField);
    this.decoder = params.changelog ? new ChangelogDecoder(params.changelog, (row) => this.checkTypes(row)) : null;
    const expr = params.eventTime?.expr;
    if (expr !== undefined) {
      const compiled = compileExpr(expr);
      this.computeTime = (row) => compiled.evaluate(row);
    } else this.computeTime = null;
  }

  /**
   * The record with its computed time field (a copy: the source's rows may belong to the
   * document), or why it has none.
   */
  private withComputedTime(row: Row): Row | string {
    let v: unknown;
    try {
      v = this.computeTime!(row);
    } catch (e) {
      return `no event time: eventTime.expr failed: ${(e as Error).message}`;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) return `no event time: eventTime.expr gave ${v === null || v === undefined ? 'NULL' : describe(v)} for this record`;
    return { ...row, [this.timeField!]: v };
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
    // No closure per record: this loop runs once per input record and allocates only the element.
    for (let i = 0; i < raws.length; i++) {
      const r = raws[i];
      if (this.decoder && !r.error) {
        this.pollChange(r, elements, deadLetters);
        continue;
      }
      const v = r.value;
      let reason: string | null = null;
      if (r.error) reason = r.error;
      else if (v === null || typeof v !== 'object' || Array.isArray(v)) reason = 'a record must be a JSON object';
      else reason = this.checkTypes(v as Row);
      let row = v as Row;
      if (reason === null && this.computeTime) {
        const done = this.withComputedTime(row);
        if (typeof done === 'string') reason = done;
        else row = done;
      }
      let ts: number | null = null;
      if (reason === null && this.timeField) {
        ts = row[this.timeField] as number | null;
        if (typeof ts !== 'number' || !Number.isFinite(ts)) reason = `no event time: field "${this.timeField}" is missing or not a timestamp${typeof ts === 'number' ? `, got ${describe(ts)}` : ''}`;
        else if (timestampProblem(ts)) reason = `no event time: field "${this.timeField}": ${timestampProblem(ts)}`;
        else if (ts > this.maxTs) this.maxTs = ts;
      }
      if (reason !== null) deadLetters.push({ nodeId: this.nodeId, reason, row: v, line: r.line, raw: r.raw });
      else if (this.slot === undefined || r.line === undefined) elements.push({ kind: '+I', row, ts });
      else elements.push({ kind: '+I', row, ts, at: packOrigin(this.slot, r.line) });
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

  /** A changelog record: decoded into 0–2 elements, each checked for event time like an append record. */
  private pollChange(r: RawRecord, elements: Element[], deadLetters: DeadLetter[]): void {
    const decoded = this.decoder!.decode(r.value);
    if ('error' in decoded) {
      deadLetters.push({ nodeId: this.nodeId, reason: decoded.error, row: r.value, line: r.line, raw: r.raw });
      return;
    }
    for (const change of decoded.changes) {
      const kind = change.kind;
      let row = change.row;
      if (this.computeTime) {
        const done = this.withComputedTime(row);
        if (typeof done === 'string') {
          deadLetters.push({ nodeId: this.nodeId, reason: `${done} (${kind})`, row: r.value, line: r.line, raw: r.raw });
          continue;
        }
        row = done;
      }
      let ts: number | null = null;
      if (this.timeField) {
        ts = row[this.timeField] as number | null;
        if (typeof ts !== 'number' || !Number.isFinite(ts)) {
          deadLetters.push({ nodeId: this.nodeId, reason: `no event time: field "${this.timeField}" is missing or not a timestamp (${kind})`, row: r.value, line: r.line, raw: r.raw });
          continue;
        }
        if (ts > this.maxTs) this.maxTs = ts;
      }
      if (this.slot === undefined || r.line === undefined) elements.push({ kind, row, ts });
      else elements.push({ kind, row, ts, at: packOrigin(this.slot, r.line) });
    }
  }

  /** Checks declared types; timestamps may arrive as ISO text and are normalized to epoch ms. */
  private checkTypes(row: Row): string | null {
    // A row that passes needs nothing more; one that fails is checked again below, which names its first bad field.
    if (this.passesTypes?.(row)) return null;
    const typed = this.typed;
    for (let i = 0; i < typed.length; i++) {
      const f = typed[i][0];
      const type = typed[i][1];
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
          if (typeof x === 'number' && Number.isFinite(x)) {
            const bad = timestampProblem(x);
            if (bad) return `field "${f}": ${bad}`;
            break;
          }
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
    const table = this.decoder?.snapshot();
    const at = this.reader.position?.();
    return { offset: this.reader.offset(), ...(at ? { at } : {}), maxTs: this.maxTs, watermark: this.wm, ...(table ? { changelogTable: table } : {}) };
  }

  restore(s: SourceTaskSnapshot): void {
    try {
      this.reader.seek(s.offset, s.at);
    } catch (e) {
      // The reader refused the checkpoint's position (another file): say which source.
      throw new Error(`source "${this.nodeId}": ${e instanceof Error ? e.message : String(e)}`);
    }
    this.maxTs = s.maxTs;
    this.wm = s.watermark;
    this.decoder?.restore(s.changelogTable);
  }
}

/**
 * `checkTypes` for schemas without timestamp fields, compiled: the generic loop reads each field
 * with a keyed load by a variable name (megamorphic, a stub-cache lookup per field and record) and
 * switches on the type's name; compiled, each field is a named load with its own inline cache.
 * True when every field passes, after turning absent fields into nulls as the loop does (the
 * time field excepted); false at the first field that fails, having normalized the fields before
 * it, as the loop would: the loop then runs on the row again and finds the same field.
 */
function typeCheckOf(typed: readonly [string, string][], timeField: string | null): ((row: Row) => boolean) | null {
  const test: Record<string, (x: string) => string> = {
    string: (x) => `typeof ${x} !== 'string'`,
    number: (x) => `typeof ${x} !== 'number' || !Number.isFinite(${x})`,
    integer: (x) => `typeof ${x} !== 'number' || !Number.isInteger(${x})`,
    boolean: (x) => `typeof ${x} !== 'boolean'`,
  };
  const lines: string[] = [];
  for (const [f, type] of typed) {
    if (type === 'timestamp') return null;
    const at = `r[${JSON.stringify(f)}]`;
    lines.push(`x = ${at};`);
    const absent = f === timeField ? '' : ` ${at} = null;`;
    // Own keys only: a type named like an Object.prototype member checks nothing, as in the loop.
    const fails = Object.hasOwn(test, type) ? test[type]('x') : null;
    lines.push(fails ? `if (x === undefined || x === null) {${absent} } else if (${fails}) return false;` : `if (x === undefined || x === null) {${absent} }`);
  }
  lines.push('return true;');
  return compiledFunction<(row: Row) => boolean>(['r'], lines.join('\n'), ['x']);
}

/** Largest |epoch ms| a Date can hold (ECMAScript: ±100,000,000 days). */
export const MAX_TIMESTAMP = 8.64e15;

/** Event times are whole milliseconds within the range of dates. */
function timestampProblem(ms: number): string | null {
  if (!Number.isInteger(ms)) return `timestamp ${ms} is not a whole number of milliseconds`;
  if (Math.abs(ms) > MAX_TIMESTAMP) return `timestamp ${ms} is outside the range of dates (±8.64e15 ms since 1970)`;
  return null;
}

function describe(x: unknown): string {
  if (typeof x === 'number' && !Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : `${x} (a number beyond ±1.8e308, such as 1e999, is not a usable number)`;
  if (typeof x === 'string') return `"${x.length > 40 ? x.slice(0, 40) + '…' : x}" (string)`;
  return `${JSON.stringify(x)} (${Array.isArray(x) ? 'array' : typeof x})`;
}
