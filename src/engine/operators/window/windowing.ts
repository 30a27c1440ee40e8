import type { OperatorContext } from '../../operator.ts';
import type { Element, Row } from '../../../core/types.ts';
import type { Windowing } from '../../../pipeline/kinds/windowing.ts';
import type { WindowBounds } from './assigners.ts';
import { fixedAssigner, maxTimestamp, windowId } from './assigners.ts';

/**
 * The windows of the rows reaching a window join, window Top-N or window deduplication: assigned
 * from event time as the window TVFs do, or read from the row's own window columns. Each window
 * gets one event-time timer at window_end − 1, namespaced by its id, which is when it fires.
 */
export class WindowedInput {
  private readonly assign: ((ts: number) => WindowBounds[]) | null;

  constructor(
    private readonly ctx: OperatorContext,
    private readonly w: Windowing,
  ) {
    this.assign = w.type === 'columns' ? null : fixedAssigner({ ...w, type: w.type });
  }

  /** The still-open windows of a record; a reason string when it has none it could belong to. */
  windowsOf(el: Element): WindowBounds[] | string {
    let all: WindowBounds[];
    if (this.assign) {
      if (typeof el.ts !== 'number' || !Number.isFinite(el.ts)) return 'no event time: a window needs records with a timestamp';
      all = this.assign(el.ts);
    } else {
      const start = el.row.window_start;
      const end = el.row.window_end;
      if (typeof start !== 'number' || typeof end !== 'number' || !(end > start)) return 'window_start and window_end must be epoch-ms timestamps with window_end > window_start';
      all = [{ start, end }];
    }
    const open = all.filter((b) => maxTimestamp(b) > this.ctx.currentWatermark());
    if (open.length < all.length) this.ctx.count('lateRecords', all.length - open.length);
    return open;
  }

  /** Registers the window's firing timer (once per key and window; the timer service keeps one). */
  watch(b: WindowBounds): void {
    this.ctx.timers.registerEventTimeTimer(maxTimestamp(b), windowId(b));
  }

  /** The row as seen in window `b`: with the window TVF's columns added. */
  rowIn(row: Row, b: WindowBounds): Row {
    if (!this.assign) return row;
    return { ...row, window_start: b.start, window_end: b.end, window_time: maxTimestamp(b) };
  }
}

/** The window a firing timer stands for. */
export function firedWindow(namespace: string | number | null): WindowBounds {
  const [start, end] = String(namespace).split('|').map(Number);
  return { start, end };
}
