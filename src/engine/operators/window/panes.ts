import type { OperatorContext } from '../../operator.ts';
import type { Element, Key, Row } from '../../../core/types.ts';
import { isAddition } from '../../../core/types.ts';
import { AggregateSet, sameRow } from '../../aggregates.ts';
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { Timer } from '../../time/timers.ts';
import { mapState } from '../../../state/descriptors.ts';
import type { MapState } from '../../../state/descriptors.ts';
import type { WindowBounds } from './assigners.ts';
import { maxTimestamp, windowId } from './assigners.ts';
import { copyRow } from '../../../pipeline/kinds/rowShapes.ts';

/** One window of one key: its rows' accumulators and the result row last emitted. */
export interface Pane extends WindowBounds {
  /** Rows currently in the window (additions minus retractions). */
  n: number;
  accs: unknown[];
  /** The key's groupBy values, copied into every result row. */
  group: Row;
  out: Row | null;
  fired: boolean;
}

export interface PaneView {
  key: Key;
  start: number;
  end: number;
  rows: number;
  value: Row | null;
  status: 'pending' | 'fired' | 'purged';
}

export interface MergeView {
  key: Key;
  from: WindowBounds[];
  into: WindowBounds;
}

const RECENT = 20;

/**
 * Window panes in keyed map state (window id → pane) plus their two event-time timers:
 * fire at end − 1 and purge at end − 1 + allowed lateness, both namespaced by the window id.
 * With no lateness the two are one timer, which fires and then purges.
 */
export class PaneKeeper {
  readonly calls: AggregateSet;
  readonly panes: MapState<string, Pane>;
  private readonly recentlyPurged: PaneView[] = [];
  private readonly recentMerges: MergeView[] = [];

  constructor(
    private readonly ctx: OperatorContext,
    aggregates: readonly AggregateCall[],
    private readonly groupBy: readonly string[],
    private readonly lateness: number,
    appendOnly = false,
  ) {
    this.calls = new AggregateSet(aggregates, appendOnly);
    this.panes = ctx.state.map(mapState<string, Pane>('panes'));
  }

  /** Flink's isWindowLate: the window's state is already gone (or about to be) at this watermark. */
  isLate(w: WindowBounds): boolean {
    return maxTimestamp(w) + this.lateness <= this.ctx.currentWatermark();
  }

  /** The watermark has reached the window's end, so its result is (or must now be) out. */
  isDue(w: WindowBounds): boolean {
    return maxTimestamp(w) <= this.ctx.currentWatermark();
  }

  open(w: WindowBounds, row: Row, accs = this.calls.create(), n = 0): Pane {
    const group: Row = {};
    for (const f of this.groupBy) group[f] = row[f] ?? null;
    const p: Pane = { start: w.start, end: w.end, n, accs, group, out: null, fired: false };
    this.registerTimers(p);
    return p;
  }

  /** Fire at end − 1 (unless already due) and purge at end − 1 + lateness, both named by the window id. */
  registerTimers(w: WindowBounds): void {
    const id = windowId(w);
    const due = this.isDue(w);
    if (!due) this.ctx.timers.registerEventTimeTimer(maxTimestamp(w), id);
    // Without lateness the purge timer is the fire timer: registering it again would change nothing.
    if (due || this.lateness !== 0) this.ctx.timers.registerEventTimeTimer(maxTimestamp(w) + this.lateness, id);
  }

  deleteTimers(w: WindowBounds): void {
    const id = windowId(w);
    this.ctx.timers.deleteEventTimeTimer(maxTimestamp(w), id);
    this.ctx.timers.deleteEventTimeTimer(maxTimestamp(w) + this.lateness, id);
  }

  /** Adds or retracts one input row. */
  apply(p: Pane, el: Element): void {
    if (isAddition(el.kind)) {
      p.n++;
      this.calls.add(p.accs, el.row);
    } else {
      p.n--;
      this.calls.retract(p.accs, el.row);
    }
  }

  /** Stores the pane, publishing its new result first when the window is already due. */
  save(p: Pane): void {
    if (p.fired || this.isDue(p)) this.publish(p);
    this.panes.put(windowId(p), p);
  }

  resultRow(p: Pane): Row {
    // Copied field by field, not spread: a spread row's shape sits outside the transition tree, so
    // each column added after it, and every operator downstream that reads it, pays for that.
    const row = copyRow(p.group, Object.keys(p.group));
    row.window_start = p.start;
    row.window_end = p.end;
    row.window_time = maxTimestamp(p);
    return this.calls.write(p.accs, row);
  }

  /** Emits the difference between what downstream has and the pane's current result. */
  publish(p: Pane): void {
    const ts = maxTimestamp(p);
    const prev = p.out;
    const next = p.n > 0 ? this.resultRow(p) : null;
    if (prev && next) {
      if (!sameRow(prev, next)) {
        this.ctx.emit({ kind: '-U', row: prev, ts });
        this.ctx.emit({ kind: '+U', row: next, ts });
      }
    } else if (prev) this.ctx.emit({ kind: '-D', row: prev, ts });
    else if (next) {
      this.ctx.emit({ kind: '+I', row: next, ts });
      if (!p.fired) this.ctx.count('windowsFired');
    }
    p.out = next;
    p.fired = true;
  }

  /** Takes a pane out of state (for a session merge): its timers go, and a result already out is withdrawn. */
  discard(p: Pane): void {
    this.panes.remove(windowId(p));
    this.deleteTimers(p);
    if (p.out) this.ctx.emit({ kind: '-D', row: p.out, ts: maxTimestamp(p) });
  }

  /** False when the current key holds no pane of the timer's window. */
  onTimer(t: Timer): boolean {
    const id = String(t.namespace);
    const p = this.panes.get(id);
    if (!p) return false;
    if (this.fireOrPurge(p, t.ts)) this.panes.remove(id);
    else this.panes.put(id, p);
    return true;
  }

  /** A window's timer at `ts`: publishes the result when due and not yet out; true when the window must now go. */
  fireOrPurge(p: Pane, ts: number): boolean {
    if (!p.fired && ts >= maxTimestamp(p)) this.publish(p);
    if (ts < maxTimestamp(p) + this.lateness) return false;
    this.ctx.count('windowsPurged');
    remember(this.recentlyPurged, { ...this.view(this.ctx.state.currentKey(), p), status: 'purged' });
    return true;
  }

  noteMerge(from: WindowBounds[], into: WindowBounds): void {
    this.ctx.count('sessionMerges', from.length - 1);
    remember(this.recentMerges, { key: this.ctx.state.currentKey(), from: from.map((w) => ({ start: w.start, end: w.end })), into: { start: into.start, end: into.end } });
  }

  view(key: Key, p: Pane): PaneView {
    return { key, start: p.start, end: p.end, rows: p.n, value: p.fired ? p.out : p.n > 0 ? this.resultRow(p) : null, status: p.fired ? 'fired' : 'pending' };
  }

  /** Open panes of up to `limit` keys (with `more`: windows kept elsewhere, as slices), the recently purged ones and recent session merges. */
  inspect(limit = 200, more: readonly PaneView[] = []): { watermark: number; panes: PaneView[]; recentlyPurged: PaneView[]; recentMerges: MergeView[] } {
    const state = this.ctx.state;
    const saved = state.currentKey();
    const panes: PaneView[] = [...more];
    for (const key of state.keys('panes').slice(0, limit)) {
      state.setCurrentKey(key);
      for (const [, p] of this.panes.entries()) panes.push(this.view(key, p));
    }
    state.setCurrentKey(saved);
    panes.sort((a, b) => a.start - b.start || a.end - b.end);
    return { watermark: this.ctx.currentWatermark(), panes, recentlyPurged: [...this.recentlyPurged], recentMerges: [...this.recentMerges] };
  }
}

function remember<T>(ring: T[], item: T): void {
  ring.push(item);
  if (ring.length > RECENT) ring.shift();
}
