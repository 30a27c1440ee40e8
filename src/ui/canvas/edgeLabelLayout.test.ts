import { describe, expect, it } from 'vitest';
import { layoutEdgeLabels, nearestOnRect } from './edgeLabelLayout.ts';
import type { Rect } from './edgeLabelLayout.ts';

const hits = (a: Rect, b: Rect) => a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;
const box = (p: { x: number; y: number }, w: number, h: number): Rect => ({ x: p.x - w / 2, y: p.y - h / 2, w, h });

describe('layoutEdgeLabels', () => {
  it('keeps a label on the middle of its curve when there is room', () => {
    const m = layoutEdgeLabels([{ id: 'e', anchors: [[100, 50]], w: 60, h: 16 }], [{ x: 0, y: 0, w: 40, h: 100 }]);
    expect(m.get('e')).toMatchObject({ x: 100, y: 50, displaced: false, free: true });
  });

  it('moves a label out from under a node and off another label, and says it moved', () => {
    const nodes: Rect[] = [
      { x: 0, y: 0, w: 200, h: 80 },
      { x: 230, y: 0, w: 200, h: 80 },
    ];
    // Two edges whose middles meet in a 30-unit gap between two nodes: neither label fits there.
    const labels = [
      { id: 'a', anchors: [[215, 40]] as [number, number][], w: 110, h: 16 },
      { id: 'b', anchors: [[215, 44]] as [number, number][], w: 110, h: 16 },
    ];
    const m = layoutEdgeLabels(labels, nodes);
    const a = box(m.get('a')!, 110, 16);
    const b = box(m.get('b')!, 110, 16);
    for (const n of nodes) {
      expect(hits(a, n)).toBe(false);
      expect(hits(b, n)).toBe(false);
    }
    expect(hits(a, b)).toBe(false);
    expect(m.get('a')!.displaced).toBe(true);
    expect(m.get('a')!.free).toBe(true);
  });

  it('is deterministic and falls back to the curve when nothing is free', () => {
    const wall: Rect = { x: -1000, y: -1000, w: 2000, h: 2000 };
    const m = layoutEdgeLabels([{ id: 'e', anchors: [[0, 0]], w: 50, h: 10 }], [wall]);
    expect(m.get('e')).toMatchObject({ x: 0, y: 0, free: false });
  });
});

describe('nearestOnRect', () => {
  it('clamps a point to the box', () => {
    expect(nearestOnRect({ x: 0, y: 0, w: 10, h: 10 }, [20, 5])).toEqual([10, 5]);
    expect(nearestOnRect({ x: 0, y: 0, w: 10, h: 10 }, [5, -3])).toEqual([5, 0]);
  });
});
