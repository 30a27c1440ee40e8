import type { OperatorContext } from '../../operator.ts';
import type { Element, Key, Row } from '../../../core/types.ts';
import { isAddition } from '../../../core/types.ts';
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { Timer } from '../../time/timers.ts';
import { mapState } from '../../../state/descriptors.ts';
import type { MapState } from '../../../state/descriptors.ts';
import type { WindowShape } from './assigners.ts';
import { maxTimestamp, windowId, windowStart } from './assigners.ts';
import type { Pane, PaneKeeper, PaneView } from './panes.ts';
import type { Outcome } from './sessions.ts';

/** Calls whose accumulators over parts of a window merge into what one accumulator over the window holds. */
const MERGEABLE = new Set(['count', 'sum', 'avg', 'min', 'max']);

/** HOP (and TUMBLE, a HOP whose slide is its size) cut into slices of gcd(size, slide): each window is a run of slices. */
export interface SliceShape {
  size: number;
  slide: number;
  offset: number;
  slice: number;
}

/** The accumulators of a fired window's timer pane, which nothing reads. */
const NO_ACCS: unknown[] = Object.freeze([]) as unknown as unknown[];

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The slicing of a window shape, or null when its windows or its calls need a pane of their own. */
export function sliceShape(shape: WindowShape, calls: readonly AggregateCall[]): SliceShape | null {
  if (shape.type !== 'hop' && shape.type !== 'tumble') return null;
  if (!calls.every((c) => MERGEABLE.has(c.fn))) return null;
  const size = shape.sizeMs!;
  const slide = shape.type === 'tumble' ? size : shape.slideMs!;
  const offset = shape.offsetMs ?? 0;
  if (![size, slide, offset].every(Number.isSafeInteger) || size <= 0 || slide <= 0) return null;
  return { size, slide, offset, slice: gcd(size, slide) };
}

/** One key's rows of one slice. */
interface Slice {
  n: number;
  accs: unknown[];
  group: Row;
  /** Σ|v| over every SUM/AVG input applied: it bounds each partial sum, so below 2^53 every sum is exact. */
  mag: number;
}

/**
 * Flink's slice-shared window aggregation (SliceSharedWindowAggProcessor) for the window
 * aggregate: a record updates the one slice that holds its time instead of a pane per window,
 * and a window's result merges its slices. Everything seen from outside stays as the pane path
 * has it: the same two timers per window and key, registered in the same order under the same
 * window id (so firing order, and timers in snapshots, are unchanged), the same publications,
 * late records and dead letters. Per key: `slices` (slice start → slice) and `fired` (window
 * start → the result last emitted, null when it had no rows); a window absent from `fired` has
 * not fired.
 *
 * Merging gives the pane path's results bit for bit only while the values allow it: integer sums
 * within 2^53, MIN/MAX over numbers (not NaN or −0), keys of plain values, integer times. A
 * record outside that turns its key's slices into the panes the pane path would hold at that
 * moment (exact, since everything merged so far was), and the key stays on panes until its last
 * window is purged. Keys restored from panes stay on panes the same way.
 *
 * "A window holding a slice is open" holds while the watermark only rises. A restore that merges
 * subtasks resumes from the lowest of their watermarks, so a key may then see a record on time for
 * a window its old subtask had purged (what is left of its slices belongs to later windows); such a
 * key goes to panes too, which reopen that window as before. Purge timers tell which windows are open.
 */
export class SliceKeeper {
  private readonly slices: MapState<number, Slice>;
  private readonly fired: MapState<number, Row | null>;
  private readonly perWindow: number;
  private readonly magLimit: number;
  private readonly summed: string[];
  private readonly extremes: string[];

  constructor(
    private readonly keeper: PaneKeeper,
    private readonly ctx: OperatorContext,
    private readonly shape: SliceShape,
    private readonly groupBy: readonly string[],
    private readonly lateness: number,
  ) {
    this.slices = ctx.state.map(mapState<number, Slice>('slices'));
    this.fired = ctx.state.map(mapState<number, Row | null>('slicedFired'));
    this.perWindow = shape.size / shape.slice;
    this.magLimit = Math.floor(Number.MAX_SAFE_INTEGER / this.perWindow);
    const calls = keeper.calls.calls;
    this.summed = calls.filter((c) => (c.fn === 'sum' || c.fn === 'avg') && c.field !== undefined).map((c) => c.field!);
    this.extremes = calls.filter((c) => (c.fn === 'min' || c.fn === 'max') && c.field !== undefined).map((c) => c.field!);
  }

  private lateAt(ws: number): boolean {
    return ws + this.shape.size - 1 + this.lateness <= this.ctx.currentWatermark();
  }

  /** Late at the highest watermark the state has seen: only such a window can have been purged. */
  private lateAtHighest(ws: number): boolean {
    return ws + this.shape.size - 1 + this.lateness <= this.ctx.highestWatermark();
  }

  /**
   * The record's outcome, or null when the pane path must take it: the key's windows are panes,
   * or this record's values would make merged results differ from the panes' (its key's slices
   * then become panes first).
   */
  process(el: Element, ts: number): Outcome | null {
    const mag = this.magnitude(el.row, ts);
    if (mag < 0) return this.toPanes();
    const { size, slide, offset, slice: g } = this.shape;
    const ss = windowStart(ts, offset, g);
    let slice = this.slices.get(ss);
    if (!slice && !this.keeper.panes.isEmpty()) return null;
    // The on-time windows of the slice are the latest ones: a prefix of latest-first order.
    const first = windowStart(ss, offset, slide);
    let m = 0;
    for (let ws = first; ws > ss - size && !this.lateAt(ws); ws -= slide) m++;
    if (m === 0) return 'late';
    const adding = isAddition(el.kind);
    if (!adding) {
      // Checked before touching any slice, so a bad retraction changes nothing.
      for (let i = 0; i < m; i++) if (this.rowsIn(first - i * slide) <= 0) return { deadLetter: 'retraction for a window that holds no rows' };
      if (!this.keeper.calls.holds(slice?.accs ?? null, el.row)) return this.toPanes();
    }
    if ((slice?.mag ?? 0) + mag > this.magLimit) return this.toPanes();
    const fresh = slice ? null : this.newWindows(first, m);
    // The windows holding a slice are open when the earliest on-time one that holds one is: it always
    // is, unless a restore that merged subtasks lowered the watermark below windows this key's old
    // subtask had purged (their slices stay for later windows). Then panes decide, as before.
    const held = slice ? first - (m - 1) * slide : fresh!.earliestHeld;
    if (held !== null && this.lateAtHighest(held) && !this.isOpen(held)) return this.toPanes();
    if (!slice) {
      for (const ws of fresh!.starts) this.keeper.registerTimers({ start: ws, end: ws + size });
      slice = { n: 0, accs: this.keeper.calls.create(), group: this.groupOf(el.row), mag: 0 };
    }
    if (adding) {
      slice.n++;
      this.keeper.calls.add(slice.accs, el.row);
    } else {
      slice.n--;
      this.keeper.calls.retract(slice.accs, el.row);
    }
    slice.mag += mag;
    this.slices.put(ss, slice);
    // A window republishes once its result is out: it is due, or it fired before a restore that merged
    // subtasks took the lowest of their watermarks (then a fired window may not be due here).
    const wm = this.ctx.currentWatermark();
    const high = this.ctx.highestWatermark();
    for (let i = 0; i < m; i++) {
      const end = first - i * slide + size - 1;
      if (end <= wm || (end <= high && this.fired.contains(end - size + 1))) this.publish(end - size + 1);
    }
    return 'ok';
  }

  /** The record's Σ|v| over SUM/AVG inputs; −1 when merging its values could differ from adding them in arrival order. */
  private magnitude(row: Row, ts: number): number {
    if (!Number.isSafeInteger(ts)) return -1;
    for (const f of this.groupBy) {
      const v = row[f];
      if (v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean') continue;
      // −0 is the key of 0: a window's group values must be those of any of its rows.
      if (typeof v !== 'number' || !Number.isFinite(v) || Object.is(v, -0)) return -1;
    }
    let mag = 0;
    for (const f of this.summed) {
      const v = row[f];
      // Null and NaN are skipped by SUM/AVG alike; a non-number was a dead letter before this.
      if (typeof v !== 'number' || v !== v) continue;
      if (!Number.isInteger(v)) return -1;
      mag += Math.abs(v);
    }
    for (const f of this.extremes) {
      const v = row[f];
      if (v === null || v === undefined) continue;
      if (typeof v !== 'number' || v !== v || Object.is(v, -0)) return -1;
    }
    return mag;
  }

  private groupOf(row: Row): Row {
    const group: Row = {};
    for (const f of this.groupBy) group[f] = row[f] ?? null;
    return group;
  }

  /**
   * For a new slice: its on-time windows that hold no slice of this key yet (so no pane would exist),
   * latest first as panes open, and the earliest on-time window that does hold one.
   */
  private newWindows(first: number, m: number): { starts: number[]; earliestHeld: number | null } {
    const held = this.slices.isEmpty() ? null : this.slices.keys();
    const { size, slide } = this.shape;
    const starts: number[] = [];
    let earliestHeld: number | null = null;
    for (let i = 0; i < m; i++) {
      const ws = first - i * slide;
      if (held && held.some((s) => s >= ws && s < ws + size)) earliestHeld = ws;
      else starts.push(ws);
    }
    return { starts, earliestHeld };
  }

  /** Whether the key's window is open: its purge timer, set when it opened, has not fired. */
  private isOpen(ws: number): boolean {
    const w = { start: ws, end: ws + this.shape.size };
    return this.ctx.timers.hasEventTimeTimer(maxTimestamp(w) + this.lateness, windowId(w));
  }

  private rowsIn(ws: number): number {
    let n = 0;
    for (let s = ws; s < ws + this.shape.size; s += this.shape.slice) n += this.slices.get(s)?.n ?? 0;
    return n;
  }

  /**
   * The window as the pane path would hold it: its slices merged into accumulators of its own; null
   * when no slice is left. `use` 'store': the pane goes into state (toPanes), with a group object of
   * its own; otherwise the pane lives for one call, which only reads the group (result rows copy
   * it). 'timer': a window already fired shows and purges by the result it emitted, so its
   * slices' accumulators are not merged (a fire and a purge timer each built them, at one time when
   * there is no lateness).
   */
  private pane(ws: number, use: 'store' | 'read' | 'timer' = 'read'): Pane | null {
    const calls = this.keeper.calls;
    const out = this.fired.get(ws);
    const merge = use !== 'timer' || out === undefined;
    let accs: unknown[] | null = null;
    let n = 0;
    let group: Row | null = null;
    for (let s = ws; s < ws + this.shape.size; s += this.shape.slice) {
      const sl = this.slices.get(s);
      if (!sl) continue;
      if (merge) accs = calls.mergeInto(accs ?? calls.create(), sl.accs);
      n += sl.n;
      group ??= sl.group;
    }
    if (group === null) return null;
    return { start: ws, end: ws + this.shape.size, n, accs: accs ?? NO_ACCS, group: use === 'store' ? { ...group } : group, out: out ?? null, fired: out !== undefined };
  }

  private publish(ws: number): void {
    const p = this.pane(ws)!;
    this.keeper.publish(p);
    this.fired.put(ws, p.out);
  }

  /** A window timer of a key on slices: fires and purges as a pane would; a purged window takes the slices no later window needs. */
  onTimer(t: Timer): void {
    const id = String(t.namespace);
    const ws = Number(id.slice(0, id.indexOf('|')));
    const p = this.pane(ws, 'timer');
    if (!p) return;
    if (!this.keeper.fireOrPurge(p, t.ts)) {
      if (p.fired) this.fired.put(ws, p.out);
      return;
    }
    this.fired.remove(ws);
    for (let s = ws; s < ws + this.shape.slide; s += this.shape.slice) this.slices.remove(s);
  }

  /**
   * Starts of this key's open windows, ascending: those that hold a slice and whose purge timer is
   * still set (a pane lives exactly that long), which stays exact even after a restore lowered the watermark.
   */
  private openStarts(): number[] {
    const { size, slide, offset } = this.shape;
    const starts = new Set<number>();
    for (const s of this.slices.keys()) for (let ws = windowStart(s, offset, slide); ws > s - size; ws -= slide) if (this.isOpen(ws)) starts.add(ws);
    return [...starts].sort((a, b) => a - b);
  }

  /** Turns the current key's slices into the panes the pane path would hold now. Returns null: the pane path goes on. */
  private toPanes(): null {
    if (this.slices.isEmpty()) return null;
    for (const ws of this.openStarts()) {
      const p = this.pane(ws, 'store')!;
      this.keeper.panes.put(windowId(p), p);
    }
    this.slices.clear();
    this.fired.clear();
    return null;
  }

  /** Open windows of up to `limit` keys on slices, as the inspector shows panes. */
  views(limit: number): PaneView[] {
    const state = this.ctx.state;
    const saved = state.currentKey();
    const out: PaneView[] = [];
    for (const key of state.keys('slices').slice(0, limit) as Key[]) {
      state.setCurrentKey(key);
      for (const ws of this.openStarts()) out.push(this.keeper.view(key, this.pane(ws)!));
    }
    state.setCurrentKey(saved);
    return out;
  }
}
