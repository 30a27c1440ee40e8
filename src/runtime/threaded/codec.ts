import type { Element, Row, RowKind } from '../../engine/types.ts';

/**
 * Batch encodings for records that cross a worker boundary. `plain` hands the Element array to
 * structured clone as it is; `columnar` turns a batch whose rows share one shape into one array
 * per field, with all-number fields (and kinds, timestamps) in typed arrays that are transferred,
 * not copied. docs/runtime.md has the measurements that picked the default.
 */
export type BatchEncoding = 'plain' | 'columnar';

export type WireBatch =
  | { enc: 'plain'; els: Element[] }
  | {
      enc: 'columnar';
      n: number;
      fields: string[];
      kinds: Uint8Array;
      /** NaN marks a null timestamp (event times are finite numbers). */
      ts: Float64Array;
      /** Per field: a Float64Array when every value is a number, else the values as they are. */
      cols: (Float64Array | unknown[])[];
    };

const KINDS: RowKind[] = ['+I', '-U', '+U', '-D'];
const KIND_CODE: Record<RowKind, number> = { '+I': 0, '-U': 1, '+U': 2, '-D': 3 };

/** Fewer rows than this are not worth a columnar layout. */
const MIN_COLUMNAR = 16;

export function encodeBatch(els: Element[], enc: BatchEncoding, transfer: Transferable[]): WireBatch {
  if (enc === 'plain' || els.length < MIN_COLUMNAR) return { enc: 'plain', els };
  const fields = Object.keys(els[0].row);
  const n = els.length;
  const width = fields.length;
  // Columnar needs one shape: the same fields in the same order (so absent stays absent).
  for (let i = 1; i < n; i++) {
    const r = els[i].row;
    let k = 0;
    for (const f in r) {
      if (k >= width || fields[k] !== f) return { enc: 'plain', els };
      k++;
    }
    if (k !== width) return { enc: 'plain', els };
  }
  const kinds = new Uint8Array(n);
  const ts = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = els[i];
    kinds[i] = KIND_CODE[e.kind];
    ts[i] = e.ts === null ? NaN : e.ts;
  }
  const cols: (Float64Array | unknown[])[] = [];
  for (const f of fields) {
    let numeric = true;
    for (let i = 0; i < n && numeric; i++) if (typeof els[i].row[f] !== 'number') numeric = false;
    if (numeric) {
      const col = new Float64Array(n);
      for (let i = 0; i < n; i++) col[i] = els[i].row[f] as number;
      cols.push(col);
      transfer.push(col.buffer);
    } else {
      const col = new Array<unknown>(n);
      for (let i = 0; i < n; i++) col[i] = els[i].row[f];
      cols.push(col);
    }
  }
  transfer.push(kinds.buffer, ts.buffer);
  return { enc: 'columnar', n, fields, kinds, ts, cols };
}

export function decodeBatch(b: WireBatch): Element[] {
  if (b.enc === 'plain') return b.els;
  const { n, fields, kinds, ts, cols } = b;
  const width = fields.length;
  const out = new Array<Element>(n);
  for (let i = 0; i < n; i++) {
    const row: Row = {};
    for (let k = 0; k < width; k++) row[fields[k]] = cols[k][i];
    const t = ts[i];
    out[i] = { kind: KINDS[kinds[i]], row, ts: Number.isNaN(t) ? null : t };
  }
  return out;
}
