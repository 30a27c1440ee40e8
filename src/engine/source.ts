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
 * Reads a source from an offset. Every source is replayable: `seek(offset)` followed by
 * reads yields exactly what the first pass yielded from that offset.
 */
export interface SourceReader {
  read(max: number): RawRecord[];
  done(): boolean;
  /** Records consumed so far, including bad ones. */
  offset(): number;
  seek(offset: number): void;
}

/** What a source may use: the job's seed and, for file sources, the contents provided to the run. */
export interface SourceEnv {
  seed: number;
  /** Lines of an input named for this source (CLI `--input id=file`, or a file loaded in the app). */
  input?: { name: string; lines: readonly string[] };
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
  eventTime?: { field: string; maxOutOfOrdernessMs?: number; idleTimeoutMs?: number };
  ratePerSec?: number;
}

/** Parses JSON lines lazily; a line that is not JSON becomes a RawRecord with an error, never a throw. */
export function jsonLinesReader(lines: readonly string[]): SourceReader {
  let pos = 0;
  return {
    read(max) {
      const out: RawRecord[] = [];
      while (pos < lines.length && out.length < max) {
        const raw = lines[pos++];
        const line = pos;
        if (raw.trim() === '') continue;
        try {
          out.push({ value: safeJsonParse(raw), raw, line });
        } catch (e) {
          out.push({ raw, line, error: `not valid JSON: ${(e as Error).message}` });
        }
      }
      return out;
    },
    done: () => pos >= lines.length,
    offset: () => pos,
    seek(o) {
      pos = Math.max(0, Math.min(o, lines.length));
    },
  };
}

/** JSON.parse that drops `__proto__`, `constructor` and `prototype` keys, so input cannot pollute prototypes. */
export function safeJsonParse(text: string): unknown {
  return JSON.parse(text, (k, v) => (k === '__proto__' || k === 'constructor' || k === 'prototype' ? undefined : v));
}
