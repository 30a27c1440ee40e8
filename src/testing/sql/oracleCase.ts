/** A Flink SQL oracle script: the script, and per sink table the final table it must end with. */
import type { Row } from './data.ts';

export interface SqlOracleCase {
  name: string;
  sql: string;
  /**
   * Per sink: a SQLite query over the input tables (where the query has a batch meaning), or the
   * rows Flink's documented semantics give (windows SQLite cannot express).
   */
  expected: Record<string, string | (() => Row[])>;
  /** Float tolerance (relative above 1); default 1e-6. */
  tolerance?: number;
}

/** Flink's window assignment (TUMBLE/HOP/CUMULATE) of one timestamp: the [start, end) windows it falls in. */
export function windowsOf(ts: number, w: { type: 'tumble' | 'hop' | 'cumulate'; size: number; slide?: number; step?: number; offset?: number }): [number, number][] {
  const off = w.offset ?? 0;
  const floor = (t: number, s: number) => t - ((((t - off) % s) + s) % s);
  if (w.type === 'tumble') return [[floor(ts, w.size), floor(ts, w.size) + w.size]];
  if (w.type === 'hop') {
    const out: [number, number][] = [];
    for (let s = floor(ts, w.slide!); s > ts - w.size; s -= w.slide!) out.push([s, s + w.size]);
    return out;
  }
  const base = floor(ts, w.size);
  const out: [number, number][] = [];
  for (let e = base + w.step!; e <= base + w.size; e += w.step!) if (ts < e) out.push([base, e]);
  return out;
}

/** GROUP BY key + window over rows: the windows Flink emits, each with its rows. */
export function groupWindows<K extends string>(rows: readonly Row[], time: string, key: K | null, assign: (ts: number) => [number, number][]): { key: unknown; start: number; end: number; rows: Row[] }[] {
  const groups = new Map<string, { key: unknown; start: number; end: number; rows: Row[] }>();
  for (const r of rows) {
    for (const [start, end] of assign(r[time] as number)) {
      const k = key ? r[key] : null;
      const id = JSON.stringify([k, start, end]);
      const g = groups.get(id) ?? { key: k, start, end, rows: [] };
      g.rows.push(r);
      groups.set(id, g);
    }
  }
  return [...groups.values()];
}

/** Session windows per key (gap-separated), as Flink merges them. */
export function sessions(rows: readonly Row[], time: string, key: string, gap: number): { key: unknown; start: number; end: number; rows: Row[] }[] {
  const byKey = new Map<unknown, Row[]>();
  for (const r of rows) byKey.set(r[key], [...(byKey.get(r[key]) ?? []), r]);
  const out: { key: unknown; start: number; end: number; rows: Row[] }[] = [];
  for (const [k, rs] of byKey) {
    const sorted = [...rs].sort((a, b) => (a[time] as number) - (b[time] as number));
    let cur: { key: unknown; start: number; end: number; rows: Row[] } | null = null;
    for (const r of sorted) {
      const t = r[time] as number;
      if (cur && t < cur.end) {
        cur.end = Math.max(cur.end, t + gap);
        cur.rows.push(r);
      } else {
        cur = { key: k, start: t, end: t + gap, rows: [r] };
        out.push(cur);
      }
    }
  }
  return out;
}
