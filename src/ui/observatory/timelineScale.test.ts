import { describe, expect, it } from 'vitest';
import { windowFrame } from './fixtures.ts';
import { layoutPanes, scatterPoints } from './timelineScale.ts';

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
