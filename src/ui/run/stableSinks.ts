import type { SinkSample } from '../../worker/protocol.ts';

const sameList = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean =>
  a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));

function sameTypes(a: SinkSample['types'], b: SinkSample['types']): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  return sameList(ka, Object.keys(b)) && ka.every((k) => a[k] === b[k]);
}

/**
 * Each sink sample of a new snapshot, holding the previous snapshot's rows, columns, types and key
 * wherever they did not change. Every snapshot arrives as a fresh structured clone, so without this
 * a memo keyed on them (the chart's series, a table's column layout) would rebuild 20 times a
 * second for data that changes at most 4 times. Rows are the same when the version is: the
 * worker's versions never repeat for different rows.
 */
export function keepUnchanged(prev: Readonly<Record<string, SinkSample>> | undefined, next: Record<string, SinkSample>): Record<string, SinkSample> {
  if (!prev) return next;
  const out: Record<string, SinkSample> = {};
  for (const [id, n] of Object.entries(next)) {
    const p = prev[id];
    if (!p) {
      out[id] = n;
      continue;
    }
    out[id] = {
      ...n,
      rows: n.version !== undefined && n.version === p.version ? p.rows : n.rows,
      columns: sameList(p.columns, n.columns) ? p.columns : n.columns,
      types: sameTypes(p.types, n.types) ? p.types : n.types,
      key: sameList(p.key, n.key) ? p.key : n.key,
    };
  }
  return out;
}
