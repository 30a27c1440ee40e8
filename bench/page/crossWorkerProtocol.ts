import type { WireBatch } from '../../src/runtime/threaded/codec.ts';

/** Messages of the cross-worker pair. Records cross only in batches (the threaded runtime's codec); the sink returns credit. */
export type CrossMode = 'engine' | 'raw';

export type ToSource =
  | { t: 'setup'; port: MessagePort; events: number; keys: number; batch: number; window: number }
  | { t: 'run'; mode: CrossMode };

export type SourceReply = { t: 'ready' } | { t: 'done'; mode: CrossMode; ms: number; events: number; viewRows: number };

export type OnChannel =
  | { t: 'begin'; mode: CrossMode }
  | { t: 'wire'; batch: WireBatch }
  | { t: 'raw'; keys: Int32Array; amounts: Float64Array }
  | { t: 'end' }
  | { t: 'ack' }
  | { t: 'finished'; events: number; viewRows: number };
