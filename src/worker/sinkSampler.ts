import type { Element, Row, RowKind } from '../core/types.ts';
import type { SinkSample } from './protocol.ts';
import type { FieldType } from '../core/streamInfo.ts';
import type { SinkCommit } from './sinkCommits.ts';

const RECENT = 50;
/** Rows one window may ask for: a chart draws the last few thousand rows of a table, a table far fewer. */
export const MAX_WINDOW_ROWS = 2000;
/** Re-reading a big table costs a sort; while running, do it at most this often. */
const REFRESH_MS = 250;

/**
 * Versions are unique across every sampler of this worker, not per sampler: a job loaded again or
 * redeployed by a step back starts a new sampler, and the page keeps a sample's rows (and redraws
 * nothing) while the version it holds comes again.
 */
let lastVersion = 0;
const nextVersion = (): number => ++lastVersion;

interface SinkState {
  changes: number;
  recent: { kind: RowKind; row: Row }[];
  dirty: boolean;
  rows: Row[];
  readAt: number;
  window: { offset: number; limit: number };
  types: Record<string, FieldType> | null;
  key: string[] | null;
  /** Renewed when `rows` is re-read or the window moves: the UI redraws a chart only then. */
  version: number;
}

/** Keeps, per sink, a count of changes and a window of its table for the UI; never every row. */
export class SinkSampler {
  private readonly sinks = new Map<string, SinkState>();

  /** `previous`: a sampler of the same job before it was deployed again; the windows shown stay. */
  constructor(sinkIds: string[], types: Record<string, Record<string, FieldType> | null>, keys: Record<string, string[] | null> = {}, previous?: SinkSampler) {
    for (const id of sinkIds) {
      const window = previous?.sinks.get(id)?.window ?? { offset: 0, limit: 100 };
      this.sinks.set(id, { changes: 0, recent: [], dirty: true, rows: [], readAt: -Infinity, window: { ...window }, types: types[id] ?? null, key: keys[id] ?? null, version: nextVersion() });
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
    if (!s) return;
    s.window = { offset: Math.max(0, Math.floor(offset)), limit: Math.max(1, Math.min(MAX_WINDOW_ROWS, Math.floor(limit))) };
    s.version = nextVersion();
  }

  /**
   * `read` gives a sink's current table; it is called only when the table changed and is due.
   * `commitOf` says which checkpoint committed that table and what is still pending. `held`: per
   * sink, the version whose rows the page keeps; a sample of that version leaves its rows out.
   */
  sample(read: ((sinkId: string) => Row[]) | null, now: number, force: boolean, commitOf?: (sinkId: string) => SinkCommit, held: Readonly<Record<string, number>> = {}): Record<string, SinkSample> {
    const out: Record<string, SinkSample> = {};
    for (const [id, s] of this.sinks) {
      if (read && s.dirty && (force || now - s.readAt >= REFRESH_MS)) {
        s.rows = read(id);
        s.readAt = now;
        s.dirty = false;
        s.version = nextVersion();
      }
      const rows = s.rows.slice(s.window.offset, s.window.offset + s.window.limit);
      // A chart's window is 2,000 rows re-read at most 4 times a second; snapshots come up to 20.
      const kept = held[id] === s.version;
      out[id] = { total: s.rows.length, offset: s.window.offset, rows: kept ? [] : rows, ...(kept ? { rowsHeld: true as const } : {}), columns: s.types ? Object.keys(s.types) : columnsOf(rows), types: s.types, key: s.key, version: s.version, changes: s.changes, recent: s.recent.slice(-RECENT), ...(commitOf ? { committed: commitOf(id) } : {}) };
    }
    return out;
  }
}

function columnsOf(rows: Row[]): string[] {
  const cols = new Set<string>();
  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) cols.add(k);
  return [...cols];
}
