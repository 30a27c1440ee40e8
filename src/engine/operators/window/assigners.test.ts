import { describe, expect, it } from 'vitest';
import { cumulateWindows, hopWindows, mod, touches, tumbleWindows, windowId, windowStart } from './assigners.ts';

const pairs = (ws: { start: number; end: number }[]) => ws.map((w) => [w.start, w.end]);

describe('window assignment', () => {
  it('uses a true modulo so negative timestamps land in the window below zero', () => {
    expect(mod(-1, 10)).toBe(9);
    expect(windowStart(-1, 0, 10)).toBe(-10);
    expect(windowStart(-10, 0, 10)).toBe(-10);
    expect(windowStart(-11, 0, 10)).toBe(-20);
    expect(pairs(tumbleWindows(-1, 1000))).toEqual([[-1000, 0]]);
  });

  it('tumbles with and without an offset', () => {
    expect(pairs(tumbleWindows(0, 1000))).toEqual([[0, 1000]]);
    expect(pairs(tumbleWindows(999, 1000))).toEqual([[0, 1000]]);
    expect(pairs(tumbleWindows(1000, 1000))).toEqual([[1000, 2000]]);
    expect(pairs(tumbleWindows(1000, 1000, 300))).toEqual([[300, 1300]]);
    expect(pairs(tumbleWindows(299, 1000, 300))).toEqual([[-700, 300]]);
    expect(pairs(tumbleWindows(5, 1000, -300))).toEqual([[-300, 700]]);
  });

  it('hops into every window that contains the record', () => {
    expect(pairs(hopWindows(1200, 1000, 500))).toEqual([
      [1000, 2000],
      [500, 1500],
    ]);
    expect(pairs(hopWindows(1000, 1000, 500))).toEqual([
      [1000, 2000],
      [500, 1500],
    ]);
    expect(pairs(hopWindows(-1, 1000, 500))).toEqual([
      [-500, 500],
      [-1000, 0],
    ]);
    // size not a multiple of slide: sometimes two windows, sometimes three
    expect(pairs(hopWindows(10, 25, 10))).toEqual([
      [10, 35],
      [0, 25],
      [-10, 15],
    ]);
    expect(pairs(hopWindows(15, 25, 10))).toEqual([
      [10, 35],
      [0, 25],
    ]);
    expect(pairs(hopWindows(120, 100, 50, 20))).toEqual([
      [120, 220],
      [70, 170],
    ]);
  });

  it('cumulates from the start of the enclosing size window', () => {
    expect(pairs(cumulateWindows(0, 300, 100))).toEqual([
      [0, 100],
      [0, 200],
      [0, 300],
    ]);
    expect(pairs(cumulateWindows(150, 300, 100))).toEqual([
      [0, 200],
      [0, 300],
    ]);
    expect(pairs(cumulateWindows(299, 300, 100))).toEqual([[0, 300]]);
    expect(pairs(cumulateWindows(300, 300, 100))).toEqual([
      [300, 400],
      [300, 500],
      [300, 600],
    ]);
    expect(pairs(cumulateWindows(-50, 300, 100))).toEqual([[-300, 0]]);
    expect(pairs(cumulateWindows(60, 300, 100, 50))).toEqual([
      [50, 150],
      [50, 250],
      [50, 350],
    ]);
  });

  it('treats touching session windows as overlapping, as Flink does', () => {
    expect(touches({ start: 0, end: 10 }, { start: 10, end: 20 })).toBe(true);
    expect(touches({ start: 0, end: 10 }, { start: 11, end: 21 })).toBe(false);
  });
});

describe('windowId', () => {
  it('writes start|end for every window, whether its id was kept or not', () => {
    const bounds = [0, -0, 1, 2000, 1.5, NaN, 1_700_000_000_000, -1_700_000_000_000, Infinity];
    let seed = 3;
    for (let i = 0; i < 4000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const start = bounds[seed % bounds.length];
      const end = bounds[(seed >> 8) % bounds.length];
      expect(windowId({ start, end })).toBe(`${start}|${end}`);
    }
  });
});
