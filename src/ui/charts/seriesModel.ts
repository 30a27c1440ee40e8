import type { Row } from '../../core/types.ts';
import type { FieldType } from '../../core/streamInfo.ts';

/** How a sink's table is drawn: a line per key over x, or one bar per key. */
export interface ChartSpec {
  type: 'line' | 'bar';
  /** The x column of a line (a time or a number); null: none fits, so only bars make sense. */
  x: string | null;
  /** The plotted value. */
  y: string | null;
  /** The column whose values name the series (lines) or the bars; null: one series. */
  series: string | null;
  /** Keys past the top ones are summed into one "other" series instead of left out. */
  foldRest: boolean;
}

/** Keys shown by name; the rest are folded or hidden, and the chart says how many. */
export const TOP_KEYS = 10;

const TIME_NAMES = ['window_start', 'window_end', 'window_time', 'rowtime', 'ts', 'event_time'];
const isNumeric = (t: FieldType | undefined): boolean => t === 'number' || t === 'integer';

/** Column types: declared ones, else guessed from the first rows (a table without a schema). */
export function columnTypes(columns: readonly string[], declared: Record<string, FieldType> | null, rows: readonly Row[]): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  for (const c of columns) {
    const d = declared?.[c];
    if (d) {
      out[c] = d;
      continue;
    }
    const v = rows.slice(0, 20).map((r) => r[c]).find((x) => x !== null && x !== undefined);
    out[c] = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : typeof v === 'object' ? 'json' : 'string';
  }
  return out;
}

/**
 * What a person most likely wants to see: x is the window start (or end, or another time
 * column); y the first numeric column that is neither a key nor x; series the key columns that
 * are not time, preferring text ones (a city reads better than a rank), else the first text
 * column. Without a time column the chart is bars by key.
 */
export function defaultSpec(columns: readonly string[], types: Record<string, FieldType>, key: readonly string[] | null): ChartSpec {
  const keys = new Set(key ?? []);
  const times = columns.filter((c) => types[c] === 'timestamp');
  const x = TIME_NAMES.find((n) => times.includes(n)) ?? times[0] ?? null;
  const y = columns.find((c) => isNumeric(types[c]) && !keys.has(c) && c !== x) ?? columns.find((c) => isNumeric(types[c]) && c !== x) ?? null;
  const keyCols = columns.filter((c) => keys.has(c) && c !== x && c !== y && types[c] !== 'timestamp');
  const text = (c: string) => types[c] === 'string';
  const series = keyCols.find(text) ?? columns.find((c) => text(c) && c !== x && c !== y) ?? keyCols[0] ?? null;
  return { type: x ? 'line' : 'bar', x, y, series, foldRest: false };
}

/** A spec kept from an earlier run that still names columns of this table; else the defaults. */
export function validSpec(kept: ChartSpec | undefined, columns: readonly string[], fallback: ChartSpec): ChartSpec {
  if (!kept) return fallback;
  const has = (c: string | null) => c === null || columns.includes(c);
  return has(kept.x) && has(kept.y) && has(kept.series) ? kept : fallback;
}

export interface SeriesData {
  name: string;
  /** One value per x (lines) or one per bar position; null where the key has no row. */
  values: (number | null)[];
  /** The "other" series that holds the folded keys. */
  folded?: boolean;
}

export interface ChartData {
  /** Line: the sorted distinct x values. Bars: 0..n-1 (labels in `categories`). */
  xs: number[];
  categories: string[];
  series: SeriesData[];
  /** Keys beyond the top ones (folded into "other" or left out). */
  restKeys: number;
  /** Rows with no usable x or y number, left out of the picture. */
  skippedRows: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null);
const keyName = (v: unknown): string => (v === null || v === undefined ? '∅' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The keys to name: the `top` largest by total of y over the rows (ties by name, so the choice
 * is stable from frame to frame), and how many are left.
 */
export function topKeys(totals: ReadonlyMap<string, number>, top = TOP_KEYS): { shown: string[]; rest: string[] } {
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k]) => k);
  return { shown: ranked.slice(0, top), rest: ranked.slice(top) };
}

/**
 * Lines: one series per key over the distinct x values. Two rows of one key at one x add up
 * (the series column does not cover the table's key); a key without a row at an x is a gap.
 */
export function buildLines(rows: readonly Row[], spec: ChartSpec, top = TOP_KEYS): ChartData {
  const { x, y, series } = spec;
  if (!x || !y) return { xs: [], categories: [], series: [], restKeys: 0, skippedRows: rows.length };
  const cells = new Map<string, Map<number, number>>();
  const totals = new Map<string, number>();
  const xset = new Set<number>();
  let skipped = 0;
  for (const r of rows) {
    const xv = num(r[x]);
    const yv = num(r[y]);
    if (xv === null || yv === null) {
      skipped++;
      continue;
    }
    const k = series ? keyName(r[series]) : y;
    let m = cells.get(k);
    if (!m) cells.set(k, (m = new Map()));
    m.set(xv, (m.get(xv) ?? 0) + yv);
    totals.set(k, (totals.get(k) ?? 0) + yv);
    xset.add(xv);
  }
  const xs = [...xset].sort((a, b) => a - b);
  const { shown, rest } = topKeys(totals, top);
  // Drawn in name order: a key keeps its place and colour while the ranking shifts.
  shown.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const line = (m: ReadonlyMap<number, number>) => xs.map((xv) => m.get(xv) ?? null);
  const out: SeriesData[] = shown.map((k) => ({ name: k, values: line(cells.get(k)!) }));
  if (spec.foldRest && rest.length) {
    const sum = new Map<number, number>();
    for (const k of rest) for (const [xv, v] of cells.get(k)!) sum.set(xv, (sum.get(xv) ?? 0) + v);
    out.push({ name: 'other', values: line(sum), folded: true });
  }
  return { xs, categories: [], series: out, restKeys: rest.length, skippedRows: skipped };
}

/**
 * Bars: one per key. With an x column, each key's value at the newest x it has a row for (the
 * latest window); without one, the sum of its rows (normally one per key).
 */
export function buildBars(rows: readonly Row[], spec: ChartSpec, top = TOP_KEYS): ChartData {
  const { x, y, series } = spec;
  if (!y) return { xs: [], categories: [], series: [], restKeys: 0, skippedRows: rows.length };
  const value = new Map<string, number>();
  const newest = new Map<string, number>();
  let skipped = 0;
  for (const r of rows) {
    const yv = num(r[y]);
    const xv = x ? num(r[x]) : 0;
    if (yv === null || xv === null) {
      skipped++;
      continue;
    }
    const k = series ? keyName(r[series]) : y;
    const seen = newest.get(k);
    if (seen === undefined || xv > seen) {
      newest.set(k, xv);
      value.set(k, yv);
    } else if (xv === seen) value.set(k, value.get(k)! + yv);
  }
  const { shown, rest } = topKeys(value, top);
  const categories = [...shown];
  const values: number[] = shown.map((k) => value.get(k)!);
  if (spec.foldRest && rest.length) {
    categories.push('other');
    values.push(rest.reduce((s, k) => s + value.get(k)!, 0));
  }
  return { xs: categories.map((_, i) => i), categories, series: [{ name: y, values }], restKeys: rest.length, skippedRows: skipped };
}

export function buildChart(rows: readonly Row[], spec: ChartSpec, top = TOP_KEYS): ChartData {
  return spec.type === 'line' ? buildLines(rows, spec, top) : buildBars(rows, spec, top);
}
