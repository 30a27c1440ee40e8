import type { StateTable } from '../../runtime/observe/types.ts';

/** An aggregate's group keeps its current result row as `out` next to the raw accumulators. */
const resultOf = (v: unknown): Record<string, unknown> | null => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const out = (v as { out?: unknown }).out;
  return out && typeof out === 'object' && !Array.isArray(out) ? (out as Record<string, unknown>) : null;
};

/**
 * The user's view of keyed state: the operator's declared output columns (`visits = 5`) read from
 * the result row each group keeps, instead of its accumulators (`{n, accs, out}`). Null when the
 * state keeps no result row (a join buffer, a window's panes): then the raw state is the view.
 */
export function resultColumns(table: StateTable, declared: string[] | null, keyFields: string[]): { columns: string[]; row: (states: Record<string, unknown>) => Record<string, unknown> | null } | null {
  if (!declared) return null;
  const holder = table.descriptors.find((d) => table.rows.some((r) => resultOf(r.states[d]) !== null));
  if (!holder) return null;
  const columns = declared.filter((c) => !keyFields.includes(c));
  return { columns, row: (states) => resultOf(states[holder]) };
}

/** A job-clock time with its unit; epoch-like times read as a UTC time of day. */
export function fmtClock(t: number | null | undefined): string {
  if (t === null || t === undefined || !Number.isFinite(t)) return '—';
  if (Math.abs(t) > 1e11) return new Date(t).toISOString().slice(11, 23);
  return `${Math.round(t).toLocaleString('en-US')} ms`;
}
