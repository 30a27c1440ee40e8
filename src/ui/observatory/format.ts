/** Readable numbers, sizes and times for the observatory panels; pure, so tested without a DOM. */

export const fmtCount = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n)));

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function fmtRate(perSecond: number): string {
  if (perSecond <= 0) return '0/s';
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`;
  return `${fmtCount(perSecond)}/s`;
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  // Job time ticks in whole milliseconds: zero means "within one tick", not a measured 0.00.
  if (ms === 0) return '< 1 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Event times that look like epoch ms read as a UTC time of day; small numbers stay numbers. */
export function fmtTime(t: number | null | undefined): string {
  if (t === null || t === undefined || t === -Infinity) return '—';
  if (t === Infinity) return 'end';
  if (Math.abs(t) > 1e11) return new Date(t).toISOString().slice(11, 23);
  return String(t);
}

/** "watermark 12:00:05", or "watermark end" once every input has ended. */
export function watermarkText(t: (key: string, vars?: Record<string, string | number>) => string, w: { watermark: number | null; watermarkEnded: boolean }): string {
  return w.watermarkEnded ? t('observatory.windows.watermarkEnd') : t('observatory.windows.watermarkAt', { t: fmtTime(w.watermark) });
}

/** A key as people write it: a single field's value bare, several as a tuple. */
export function fmtKey(key: unknown): string {
  if (Array.isArray(key)) return key.length === 1 ? fmtScalar(key[0]) : `(${key.map(fmtScalar).join(', ')})`;
  return fmtScalar(key);
}

/** A timestamp column's value as the Results table shows it: `2023-11-14 23:10:40.000` (UTC). */
export const fmtTimestamp = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

export function fmtScalar(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return v;
  // Float noise (358.68000000000006) hides the value a learner is looking for.
  if (typeof v === 'number') return String(Number.isInteger(v) ? v : Number(v.toPrecision(12)));
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** One line for a row: `a=1 b=x`, shortened past `max` characters. */
export function fmtRow(row: Record<string, unknown> | null | undefined, max = 120): string {
  if (!row) return 'NULL';
  const text = Object.entries(row)
    .map(([k, v]) => `${k}=${fmtScalar(v)}`)
    .join(' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A one-line preview of a value: nested lists and maps shrink to their size, long text ends in "…". */
export function preview(v: unknown, max = 64, depth = 2): string {
  const inner = (x: unknown, d: number): string => {
    if (Array.isArray(x)) return d <= 0 ? `[${x.length}]` : `[${x.slice(0, 4).map((y) => inner(y, d - 1)).join(', ')}${x.length > 4 ? ', …' : ''}]`;
    if (x instanceof Map) return d <= 0 ? `{${x.size}}` : `{${[...x.entries()].slice(0, 4).map(([k, y]) => `${fmtScalar(k)}: ${inner(y, d - 1)}`).join(', ')}${x.size > 4 ? ', …' : ''}}`;
    if (x && typeof x === 'object') {
      const e = Object.entries(x);
      return d <= 0 ? `{${e.length}}` : `{${e.slice(0, 4).map(([k, y]) => `${k}: ${inner(y, d - 1)}`).join(', ')}${e.length > 4 ? ', …' : ''}}`;
    }
    return fmtScalar(x);
  };
  const text = inner(v, depth);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Lists and maps expand in the state table; the preview says what is inside. */
export function summarize(v: unknown): { text: string; expandable: boolean; size: number } {
  const size = Array.isArray(v) ? v.length : v instanceof Map ? v.size : v && typeof v === 'object' ? Object.keys(v).length : 1;
  const container = Array.isArray(v) || v instanceof Map || (v !== null && typeof v === 'object');
  const text = preview(v);
  return { text, expandable: container && size > 0 && (text.endsWith('…') || text.includes('[') || text.includes('{', 1)), size };
}

/** Entries of an expandable value, each as [label, value]. */
export function entriesOf(v: unknown): [string, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [String(i), x]);
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => [fmtScalar(k), x]);
  if (v && typeof v === 'object') return Object.entries(v);
  return [];
}
