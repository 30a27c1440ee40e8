import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { expectRestoreMatches } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';

const rank = (window: Record<string, unknown>) => new OperatorHarness('topN', { partitionBy: ['k'], orderBy: [{ field: 'v', direction: 'desc' }], n: 2, window });
const dedup = (keep: string, window: Record<string, unknown> = { type: 'tumble', sizeMs: 100 }) => new OperatorHarness('dedup', { key: ['k'], keep, window });

function steps(seed: number): Step[] {
  let x = seed;
  const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
  const out: Step[] = [];
  for (let i = 0; i < 80; i++) {
    const ts = i * 9 + next(30);
    out.push({ row: { k: `k${next(2)}`, v: next(20), id: i }, ts });
    if (i % 5 === 4) out.push({ wm: i * 9 - 30 });
  }
  out.push({ wm: Infinity });
  return out;
}

describe('window Top-N', () => {
  it('ranks per partition and window and emits the top n once, append-only, when the window closes', () => {
    const h = rank({ type: 'tumble', sizeMs: 100 });
    for (const [v, ts] of [[3, 10], [9, 20], [5, 30], [9, 40], [1, 150]]) h.processElement({ k: 'a', v }, { ts });
    h.processWatermark(99);
    expect(h.lines()).toEqual([
      '+I {"k":"a","v":9,"window_start":0,"window_end":100,"window_time":99,"rownum":1}',
      '+I {"k":"a","v":9,"window_start":0,"window_end":100,"window_time":99,"rownum":2}',
    ]);
    h.processWatermark(Infinity);
    expect(h.lines()[2]).toBe('+I {"k":"a","v":1,"window_start":100,"window_end":200,"window_time":199,"rownum":1}');
    expect(h.task.timers.count()).toBe(0);
  });

  it('after a Window aggregate, on its window columns', () => {
    const h = rank({ type: 'columns' });
    h.processElement({ k: 'a', v: 1, window_start: 0, window_end: 60 }, { ts: 59 });
    h.processElement({ k: 'a', v: 4, window_start: 0, window_end: 60 }, { ts: 59 });
    h.processElement({ k: 'a', v: 2, window_start: 0, window_end: 60 }, { ts: 59 });
    h.processWatermark(Infinity);
    expect(h.output().map((e) => [e.row.v, e.row.rownum])).toEqual([[4, 1], [2, 2]]);
  });

  it('survives snapshot and restore', () => {
    const s = steps(5);
    expect(expectRestoreMatches(() => rank({ type: 'hop', sizeMs: 100, slideMs: 50 }), s, [3, 40, 90]).output().length).toBeGreaterThan(10);
  });
});

describe('window deduplication', () => {
  it('keeps the first or last row of each key and window by event time', () => {
    for (const [keep, want] of [['first', [2]], ['last', [3]]] as const) {
      const h = dedup(keep);
      h.processElement({ k: 'a', v: 1 }, { ts: 30 });
      h.processElement({ k: 'a', v: 2 }, { ts: 10 });
      h.processElement({ k: 'a', v: 3 }, { ts: 30 });
      h.processWatermark(Infinity);
      expect(h.output().map((e) => e.row.v)).toEqual(want);
      expect(h.output()[0].kind).toBe('+I');
    }
  });

  it('drops late rows and counts them', () => {
    const h = dedup('last');
    h.processWatermark(200);
    h.processElement({ k: 'a', v: 1 }, { ts: 30 });
    expect(h.task.counters.lateRecords).toBe(1);
  });

  it('survives snapshot and restore', () => {
    const s = steps(9);
    expect(expectRestoreMatches(() => dedup('first', { type: 'cumulate', sizeMs: 200, stepMs: 50 }), s, [2, 45, 85]).output().length).toBeGreaterThan(10);
  });
});
