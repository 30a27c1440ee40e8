import type { ChangelogInput } from './changelogDecoder.ts';
import type { Row } from './types.ts';
import type { ByteInput, LineSource } from './lineSource.ts';
import { LINE_BREAK, arrayLines } from './lineSource.ts';
/** A raw record as a source reads it, before schema and event-time checks. */
export interface RawRecord {
  value?: unknown;
  /** The original text, kept for dead letters. */
  raw?: string;
  /** 1-based line in the input file. */
  line?: number;
  /** Set when the record could not even be read (not JSON, say). */
  error?: string;
}

/**
 * Reads a source from an offset. Finite sources are replayable: `seek(offset)` followed by
 * reads yields exactly what the first pass yielded from that offset. A live source (stdin) may
 * return nothing from `read` while `done()` is still false: no data yet. The in-process scheduler then
 * moves on to other work and its caller runs it again when data arrives.
 */
export interface SourceReader {
  read(max: number): RawRecord[];
  done(): boolean;
  /** Records consumed so far, including bad ones. */
  offset(): number;
  /**
   * `at`: where the offset lies in the input (a byte position of a file read in blocks), as
   * `position()` gave it when the checkpoint was taken, so the seek need not scan the file.
   */
  seek(offset: number, at?: SourcePosition): void;
  /** Where `offset()` lies in a file read in blocks; a checkpoint keeps it beside the offset. */
  position?(): SourcePosition | undefined;
  /**
   * A live reader that keeps what it received for replay: a checkpoint with this source at
   * `offset` completed, so what lies before the retained checkpoints can be freed.
   */
  checkpointCompleted?(offset: number): void;
  /** A live reader with nothing to read now that has not ended: its subtask waits instead of spinning. */
  waiting?(): boolean;
  /** State of the reader itself that a checkpoint carries (a live feed's unread messages). */
  carry?(): unknown;
  /** Before seeking to a restored offset: takes back what `carry` gave, if another process wrote it. */
  adopt?(offset: number, carried: unknown): void;
}

/** A line of a file and the byte where a block at or before it starts. */
export interface SourcePosition {
  line: number;
  byte: number;
  /** Which file these are positions in (absent in older checkpoints): a restore refuses another file. */
  file?: FileIdentity;
}

/**
 * What tells one file from another without reading it whole: its size and a hash of its first and
 * of its last 64 KB (less when the file is read in smaller blocks). A file picked again with other contents almost always differs in one of them;
 * a change of equal length in the middle only, away from both ends, is not seen.
 */
export interface FileIdentity {
  size: number;
  head: number;
  tail: number;
}

/** Lines of a file held in memory. */
export interface LinesInput {
  name: string;
  lines: readonly string[];
}

/** What a source may use: the job's seed and, for file sources, the contents provided to the run. */
export interface SourceEnv {
  seed: number;
  /** Lines of an input named for this source (CLI `--input id=file`, or a file loaded in the app). */
  input?: LinesInput | ByteInput;
  /**
   * The params are this run's own copy (a worker's deployed plan), and each record is read once:
   * a source may hand its rows on without copying them. Otherwise they belong to the document.
   */
  ownsParams?: boolean;
  /**
   * The rows this source made on an earlier pass of the same run, by record index: a replay of
   * the run's history (stepping back) takes them instead of making them again. Only for sources
   * whose record i is a pure function of their params.
   */
  rows?: RowMemo;
}

/**
 * Rows by record index, kept across the passes of one run. A row handed out again is the object
 * the first pass made: a source task's typing changes a row only the first time it sees it (a
 * missing field becomes null, timestamp text epoch ms), and nothing after the source changes a
 * row, so a later pass reads it as the first pass did.
 */
export interface RowMemo {
  /** The row made for `index` (null: the index yields no record), or undefined when none was kept. */
  get(index: number): Row | null | undefined;
  keep(index: number, row: Row | null): void;
}

export interface SourceDefinition<P = Record<string, unknown>> {
  kind: string;
  open(params: P, env: SourceEnv): SourceReader;
  /** Schema, event time and rate after this kind's own defaults; default: the params as written. */
  taskParams?(params: P): CommonSourceParams;
}

/** Params every source kind shares. */
export interface CommonSourceParams {
  schema?: Record<string, string>;
  /**
   * `field` holds the event time; with `expr` it is computed per record from the record's fields
   * (a SQL computed column `field AS expr` with WATERMARK FOR field) and added to the record.
   */
  eventTime?: { field: string; expr?: string; maxOutOfOrdernessMs?: number; idleTimeoutMs?: number };
  ratePerSec?: number;
  /** Set when the records encode a changelog (Debezium, changelog-json, upsert) rather than appends. */
  changelog?: ChangelogInput;
}

/** One JSON line as a record; a line that is not JSON becomes a record with an error, never a throw. */
function parseLine(raw: string, line: number): RawRecord {
  try {
    return { value: safeJsonParse(raw), raw, line };
  } catch (e) {
    return { raw, line, error: unparsedReason(e) };
  }
}

/**
 * Why a record's text could not be read. JSON nested tens of thousands of levels deep is valid
 * JSON, but reading it overflows the stack, and "Maximum call stack size exceeded" says neither
 * what is wrong nor what to do.
 */
export function unparsedReason(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return `the record is nested too deeply to read (its arrays and objects nest thousands of levels deep: ${e.message}); flatten it`;
  return `not valid JSON: ${(e as Error).message}`;
}

/** Parses JSON lines lazily; blank lines are skipped but keep their line numbers. */
export function jsonLinesReader(input: readonly string[] | LineSource): SourceReader {
  const lines = Array.isArray(input) ? arrayLines(input) : (input as LineSource);
  let pos = 0;
  return {
    read(max) {
      const out: RawRecord[] = [];
      for (let raw = lines.line(pos); raw !== undefined && out.length < max; raw = lines.line(pos)) {
        pos++;
        if (raw.trim() !== '') out.push(parseLine(raw, pos));
      }
      return out;
    },
    done: () => lines.line(pos) === undefined,
    offset: () => pos,
    position: () => lines.position?.(pos),
    seek(o, at) {
      if (at) lines.hint?.(at);
      pos = Math.max(0, o);
    },
  };
}

const MAX_UNREVIVED = 1024;
const dropUnsafeKey = (k: string, v: unknown) => (k === '__proto__' || k === 'constructor' || k === 'prototype' ? undefined : v);

/**
 * JSON.parse that drops `__proto__`, `constructor` and `prototype` keys, so input cannot pollute
 * prototypes. A reviver makes JSON.parse call back for every value (3–4× the parse time), so it
 * runs only on text that could spell one of those keys (text naming one of them, or holding a
 * `\u` escape, which could spell any letter of them) and on long text. Any other text parses to
 * the same value without it.
 */
export function safeJsonParse(text: string): unknown {
  // A long text may nest deeper than later recursive code (clones, encoders) can follow: the
  // reviver's own recursion overflows inside JSON.parse instead, where readError names it.
  // 1,024 characters nest at most 1,024 levels, well within every stack.
  if (text.length > MAX_UNREVIVED || text.includes('__proto__') || text.includes('constructor') || text.includes('prototype') || text.includes('\\u')) return JSON.parse(text, dropUnsafeKey);
  return JSON.parse(text);
}

/** A JSON Lines reader fed while the job runs (stdin): text goes in by `push`, `end` closes it. */
export interface LiveLinesReader extends SourceReader {
  push(text: string): void;
  end(): void;
  /** Complete lines received but not read yet. */
  buffered(): number;
}

/**
 * A live input cannot be replayed: its lines are dropped once read, so memory stays bounded
 * however long the stream runs, and `seek` only accepts the current offset.
 */
export function liveLinesReader(name: string): LiveLinesReader {
  let partial = '';
  let lines: string[] = [];
  let head = 0;
  let consumed = 0;
  let ended = false;
  let first = true;
  const take = (text: string) => lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
  return {
    read(max) {
      const out: RawRecord[] = [];
      while (head < lines.length && out.length < max) {
        const raw = lines[head++];
        consumed++;
        if (raw.trim() !== '') out.push(parseLine(raw, consumed));
      }
      if (head === lines.length) {
        lines = [];
        head = 0;
      }
      return out;
    },
    done: () => ended && head >= lines.length,
    offset: () => consumed,
    seek(o) {
      if (o !== consumed) throw new Error(`${name} is a live input and cannot be replayed from line ${o + 1}; a live run cannot restore a checkpoint`);
    },
    push(text) {
      if (ended) throw new Error(`${name}: data pushed after the end of the input`);
      if (first && text.length) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      // Lines end at LF, CRLF or a lone CR (as in files). A CR at the very end of a chunk may be
      // the first half of a CRLF whose LF comes in the next chunk, so it waits with the partial line.
      let all = partial + text;
      const heldCr = all.endsWith('\r');
      if (heldCr) all = all.slice(0, -1);
      const parts = all.split(LINE_BREAK);
      partial = parts.pop()! + (heldCr ? '\r' : '');
      for (const p of parts) take(p);
    },
    end() {
      if (ended) return;
      if (partial !== '') take(partial);
      partial = '';
      ended = true;
    },
    buffered: () => lines.length - head,
  };
}
