import type { WireBatch } from '../../src/runtime/threaded/codec.ts';

/**
 * Modes of the cross-worker pair, each over the same ready records:
 * - `engine`: the keyed count with its source in one worker and GROUP BY + view in the other;
 * - `single`: the same operators all in the source's worker, nothing encoded (the reference for `engine`);
 * - `passThrough`: source in one worker, map + blackhole sink in the other;
 * - `raw`: the records as transferred typed arrays, only touched on arrival (the reference for `passThrough`).
 * Records cross only in batches (the threaded runtime's codec); the sink returns credit.
 */
export type CrossMode = 'engine' | 'single' | 'passThrough' | 'raw';
export const CROSS_MODES: readonly CrossMode[] = ['engine', 'single', 'passThrough', 'raw'];

export type ToSource =
  | { t: 'setup'; port: MessagePort; events: number; keys: number; batch: number; window: number }
  | { t: 'run'; mode: CrossMode };

/** `busyMs`: time both workers spent working on the run (handlers, not waits for credit or messages); in `single`, its wall time. */
export type SourceReply = { t: 'ready' } | { t: 'done'; mode: CrossMode; ms: number; busyMs: number; events: number; viewRows: number };

export type OnChannel =
  | { t: 'begin'; mode: CrossMode }
  | { t: 'wire'; batch: WireBatch }
  | { t: 'raw'; keys: Int32Array; amounts: Float64Array }
  | { t: 'end' }
  | { t: 'ack' }
  | { t: 'finished'; events: number; viewRows: number; busyMs: number };
