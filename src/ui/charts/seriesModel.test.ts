import { describe, expect, it } from 'vitest';
import { buildBars, buildLines, columnTypes, defaultSpec, topKeys, validSpec } from './seriesModel.ts';
import type { ChartSpec } from './seriesModel.ts';

const windowTypes = { window_start: 'timestamp', window_end: 'timestamp', city: 'string', revenue: 'number', orders: 'integer', rownum: 'integer' } as const;
const windowCols = Object.keys(windowTypes);

describe('defaultSpec', () => {
  it('puts the window start on x, the first numeric non-key column on y and a text key on the series', () => {
    expect(defaultSpec(windowCols, { ...windowTypes }, ['window_start', 'window_end', 'city'])).toEqual({ type: 'line', x: 'window_start', y: 'revenue', series: 'city', foldRest: false });
  });

  it('prefers a text column over a numeric key (a rank) for the series', () => {
    expect(defaultSpec(windowCols, { ...windowTypes }, ['window_start', 'window_end', 'rownum']).series).toBe('city');
  });

  it('takes the window end when there is no window start, and skips a numeric key for y', () => {
    const s = defaultSpec(['store', 'window_end', 'n', 'total'], { store: 'integer', window_end: 'timestamp', n: 'integer', total: 'number' }, ['store', 'window_end']);
    expect(s).toMatchObject({ type: 'line', x: 'window_end', y: 'n', series: 'store' });
  });

  it('draws bars by key when no column is a time', () => {
    expect(defaultSpec(['store', 'sales'], { store: 'string', sales: 'number' }, ['store'])).toEqual({ type: 'bar', x: null, y: 'sales', series: 'store', foldRest: false });
  });

  it('has no y when no column is a number', () => {
    expect(defaultSpec(['a', 'b'], { a: 'string', b: 'string' }, null).y).toBeNull();
  });
});

describe('columnTypes and validSpec', () => {
  it('guesses types of undeclared columns from the rows', () => {
    expect(columnTypes(['a', 'b', 'c'], null, [{ a: null, b: 'x', c: true }, { a: 2 }])).toEqual({ a: 'number', b: 'string', c: 'boolean' });
  });

  it('keeps a remembered spec only while its columns exist', () => {
    const kept: ChartSpec = { type: 'bar', x: null, y: 'orders', series: 'city', foldRest: true };
    const fallback = defaultSpec(windowCols, { ...windowTypes }, null);
    expect(validSpec(kept, windowCols, fallback)).toBe(kept);
    expect(validSpec({ ...kept, y: 'gone' }, windowCols, fallback)).toBe(fallback);
  });
});

describe('topKeys', () => {
  it('keeps the ten largest, ties broken by name, and reports the rest', () => {
    const totals = new Map(Array.from({ length: 13 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i % 5] as const));
    const { shown, rest } = topKeys(totals);
    expect(shown).toHaveLength(10);
    expect(shown.slice(0, 3)).toEqual(['k04', 'k09', 'k03']);
    expect(rest).toEqual(['k00', 'k05', 'k10']);
  });
});

const rowsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    { window_start: 0, city: `c${i}`, revenue: i + 1 },
    { window_start: 60_000, city: `c${i}`, revenue: 2 * (i + 1) },
  ]).flat();

describe('buildLines', () => {
  const spec: ChartSpec = { type: 'line', x: 'window_start', y: 'revenue', series: 'city', foldRest: false };

  it('makes one series per key over the sorted distinct x values, gaps as null', () => {
    const d = buildLines([{ window_start: 60_000, city: 'a', revenue: 3 }, { window_start: 0, city: 'a', revenue: 1 }, { window_start: 0, city: 'b', revenue: 5 }], spec);
    expect(d.xs).toEqual([0, 60_000]);
    expect(d.series).toEqual([
      { name: 'a', values: [1, 3] },
      { name: 'b', values: [5, null] },
    ]);
    expect(d.restKeys).toBe(0);
  });

  it('hides keys past the top ten and counts them; the shown ones in name order, so colours stay with their key', () => {
    const d = buildLines(rowsOf(14), spec);
    expect(d.series.map((s) => s.name)).toEqual(['c10', 'c11', 'c12', 'c13', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    expect(d.restKeys).toBe(4);
  });

  it('folds the rest into one "other" series that sums them per x', () => {
    const d = buildLines(rowsOf(14), { ...spec, foldRest: true });
    expect(d.series).toHaveLength(11);
    expect(d.series[10]).toEqual({ name: 'other', values: [1 + 2 + 3 + 4, 2 * (1 + 2 + 3 + 4)], folded: true });
  });

  it('adds up two rows of one key at one x, and leaves out rows without numbers', () => {
    const d = buildLines([{ window_start: 0, city: 'a', revenue: 1 }, { window_start: 0, city: 'a', revenue: 2 }, { window_start: null, city: 'a', revenue: 2 }, { window_start: 0, city: 'a', revenue: 'x' }], spec);
    expect(d.series).toEqual([{ name: 'a', values: [3] }]);
    expect(d.skippedRows).toBe(2);
  });

  it('draws one series named after y without a series column', () => {
    expect(buildLines([{ window_start: 0, revenue: 1 }], { ...spec, series: null }).series).toEqual([{ name: 'revenue', values: [1] }]);
  });
});

describe('buildBars', () => {
  it('shows each key at the newest x it has, largest first', () => {
    const d = buildBars(
      [
        { window_start: 0, city: 'a', revenue: 9 },
        { window_start: 60_000, city: 'a', revenue: 1 },
        { window_start: 0, city: 'b', revenue: 4 },
      ],
      { type: 'bar', x: 'window_start', y: 'revenue', series: 'city', foldRest: false },
    );
    expect(d.categories).toEqual(['b', 'a']);
    expect(d.series[0].values).toEqual([4, 1]);
    expect(d.xs).toEqual([0, 1]);
  });

  it('without x sums the rows of each key, and folds the rest into "other" on request', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ store: `s${i}`, sales: i }));
    const d = buildBars(rows, { type: 'bar', x: null, y: 'sales', series: 'store', foldRest: true });
    expect(d.categories).toHaveLength(11);
    expect(d.categories[10]).toBe('other');
    expect(d.series[0].values[10]).toBe(0 + 1);
    expect(d.restKeys).toBe(2);
  });
});
