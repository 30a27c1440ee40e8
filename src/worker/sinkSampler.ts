import type { Element, Row, RowKind } from '../engine/types.ts';
import type { SinkSample } from './protocol.ts';
import type { FieldType } from '../pipeline/streamInfo.ts';

const RECENT = 50;
/** Re-reading a big table costs a sort; while running, do it at most this often. */
const REFRESH_MS = 250;

interface SinkState {
  changes: number;
  recent: { kind: RowKind; row: Row }[];
  dirty: boolean;
  rows: Row[];
  readAt: number;
  window: { offset: number; limit: number };
  types: Record<string, FieldType> | null;
}

/** Keeps, per sink, a count of changes and a window of its table for the UI; never every row. */
export class SinkSampler {
  private readonly sinks = new Map<string, SinkState>();

  /** `previous`: a sampler of the same job before it was deployed again; the windows shown stay. */
  constructor(sinkIds: string[], types: Record<string, Record<string, FieldType> | null>, previous?: SinkSampler) {
    for (const id of sinkIds) {
      const window = previous?.sinks.get(id)?.window ?? { offset: 0, limit: 100 };
      this.sinks.set(id, { changes: 0, recent: [], dirty: true, rows: [], readAt: -Infinity, window: { ...window }, types: types[id] ?? null });
    }
  }

  onOutput(sinkId: string, els: readonly Element[]): void {
    const s = this.sinks.get(sinkId);
    if (!s) return;
    s.changes += els.length;
    s.dirty = true;
    for (const e of els.slice(-RECENT)) s.recent.push({ kind: e.kind, row: e.row });
    if (s.recent.length > RECENT * 2) s.recent.splice(0, s.recent.length - RECENT);
  }

  markAllDirty(): void {
    for (const s of this.sinks.values()) s.dirty = true;
  }

  setWindow(sinkId: string, offset: number, limit: number): void {
    const s = this.sinks.get(sinkId);
    if (s) s.window = { offset: Math.max(0, Math.floor(offset)), limit: Math.max(1, Math.min(500, Math.floor(limit))) };
  }

  /** `read` gives a sink's current table; it is called only when the table changed and is due. */
  sample(read: ((sinkId: string) => Row[]) | null, now: number, force: boolean): Record<string, SinkSample> {
    const out: Record<string, SinkSample> = {};
    for (const [id, s] of this.sinks) {
      if (read && s.dirty && (force || now - s.readAt >= REFRESH_MS)) {
        s.rows = read(id);
        s.readAt = now;
        s.dirty = false;
      }
      const rows = s.rows.slice(s.window.offset, s.window.offset + s.window.limit);
      out[id] = { total: s.rows.length, offset: s.window.offset, rows, columns: s.types ? Object.keys(s.types) : columnsOf(rows), types: s.types, changes: s.changes, recent: s.recent.slice(-RECENT) };
    }
    return out;
  }
}

function columnsOf(rows: Row[]): string[] {
  const cols = new Set<string>();
  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) cols.add(k);
  return [...cols];
}
