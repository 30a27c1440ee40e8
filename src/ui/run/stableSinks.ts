import type { SinkSample } from '../../worker/protocol.ts';

const sameList = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean =>
  a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));

function sameTypes(a: SinkSample['types'], b: SinkSample['types']): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  return sameList(ka, Object.keys(b)) && ka.every((k) => a[k] === b[k]);
}

/** A sample whose rows were left out for a version this page no longer holds: no rows, and no version to claim. */
const lost = (n: SinkSample): SinkSample => {
  const { rowsHeld: _, version: __, ...rest } = n;
  return { ...rest, rows: [] };
};

/**
 * Each sink sample of a new snapshot, holding the previous snapshot's rows, columns, types and key
 * wherever they did not change. Every snapshot arrives as a fresh structured clone, so without this
 * a memo keyed on them (the chart's series, a table's column layout) would rebuild 20 times a
 * second for data that changes at most 4 times. Rows are the same when the version is: the
 * worker's versions never repeat for different rows. A sample that left its rows out (`rowsHeld`)
 * gets them back from here.
 */
export function keepUnchanged(prev: Readonly<Record<string, SinkSample>> | undefined, next: Record<string, SinkSample>): Record<string, SinkSample> {
  const out: Record<string, SinkSample> = {};
  for (const [id, n] of Object.entries(next)) {
    const p = prev?.[id];
    const same = !!p && n.version !== undefined && n.version === p.version;
    if (!p || (n.rowsHeld && !same)) {
      out[id] = n.rowsHeld ? lost(n) : n;
      continue;
    }
    const { rowsHeld: _, ...rest } = n;
    out[id] = {
      ...rest,
      rows: same ? p.rows : n.rows,
      columns: sameList(p.columns, n.columns) ? p.columns : n.columns,
      types: sameTypes(p.types, n.types) ? p.types : n.types,
      key: sameList(p.key, n.key) ? p.key : n.key,
    };
  }
  return out;
}

/** Per sink, the version whose rows the page holds: what it tells the worker it need not send again. */
export function heldRows(sinks: Readonly<Record<string, SinkSample>> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, s] of Object.entries(sinks ?? {})) if (s.version !== undefined) out[id] = s.version;
  return out;
}
