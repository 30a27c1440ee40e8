import { describe, expect, it } from 'vitest';
import { windowFrame } from './fixtures.ts';
import { layoutPanes, scatterPoints, timeTicks } from './timelineScale.ts';

describe('window timeline layout', () => {
  const w = windowFrame.window!;

  it('puts one row per key and scales panes onto the axis', () => {
    const l = layoutPanes(w.panes, w.watermark, 300);
    expect(l.keys).toEqual(['paris', 'lyon']);
    expect([l.from, l.to]).toEqual([0, 30_000]);
    expect(l.bars.map((b) => [b.row, Math.round(b.x)])).toEqual([[0, 0], [0, 100], [1, 200]]);
    expect(Math.round(l.watermarkX!)).toBe(200);
  });

  it('hides keys beyond the limit and says how many', () => {
    const l = layoutPanes(w.panes, null, 300, 1);
    expect(l.keys).toEqual(['paris']);
    expect(l.hiddenKeys).toBe(1);
    expect(l.watermarkX).toBeNull();
  });

  it('holds a watermark far past the panes at the end of the axis and says it is beyond', () => {
    const l = layoutPanes(w.panes.slice(0, 1), 1_000_000, 100);
    expect([l.watermarkX, l.watermarkOff]).toEqual([100, 'after']);
    expect(layoutPanes(w.panes.slice(0, 1), Infinity, 100).watermarkOff).toBe('after');
  });

  it('widens the axis to show a watermark just past the panes', () => {
    const l = layoutPanes(w.panes.slice(0, 1), 12_000, 100);
    expect(l.to).toBe(12_000);
    expect(l.watermarkX).toBe(100);
  });

  it('survives no panes at all', () => {
    expect(layoutPanes([], 5, 100).bars).toEqual([]);
  });

  it('scales the out-of-orderness plot with later event time higher up', () => {
    const pts = scatterPoints(windowFrame.sources[0].points, 100, 50);
    expect(pts[0].x).toBe(0);
    expect(pts[3].x).toBe(100);
    expect(pts[1].y).toBe(0);
    expect(pts[3].y).toBe(50);
  });
});

describe('timeTicks', () => {
  it('picks a round step that leaves room between labels, and labels only as finely as it needs', () => {
    const from = Date.UTC(2023, 10, 14, 12, 0, 7);
    const ticks = timeTicks(from, from + 3 * 60_000, 480);
    expect(ticks.map((t) => t.label)).toEqual(['12:00:30', '12:01:00', '12:01:30', '12:02:00', '12:02:30', '12:03:00']);
    expect(ticks[1].x - ticks[0].x).toBeGreaterThanOrEqual(64);
    const minutes = timeTicks(from, from + 60 * 60_000, 480);
    expect(minutes[0].label).toBe('12:10');
  });

  it('counts plain milliseconds for small event times and gives nothing for an empty span', () => {
    expect(timeTicks(0, 10_000, 470).map((t) => t.label)).toEqual(['0', '2000', '4000', '6000', '8000', '10000']);
    expect(timeTicks(5, 5, 470)).toEqual([]);
  });
});
