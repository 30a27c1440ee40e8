import type { Element, RowKind } from '../../core/types.ts';
import { WireArena } from '../../core/wireArena.ts';
import { arenaEstimate, columnsOf, columnValues, rowMaker, type WireColumn } from '../../core/packedRows.ts';

export { isPackedRows, packRows, unpackRows, type PackedRows, type WireColumn } from '../../core/packedRows.ts';

/**
 * Batch encodings for records that cross a worker boundary. `plain` hands the Element array to
 * structured clone as it is; `columnar` turns a batch whose rows share one shape into one column
 * per field: kinds, timestamps and all-number fields as typed arrays that are transferred, not
 * copied (all of a batch's in one buffer, see WireArena), strings as a table of the batch's
 * distinct strings plus indexes, anything else as the values themselves (core/packedRows.ts). docs/runtime.md has the measurements that picked the default.
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
      /** Each record's source line (Element.at), NaN where it has none; absent when no record has one. */
      at?: Float64Array;
      cols: WireColumn[];
    };

const KINDS: RowKind[] = ['+I', '-U', '+U', '-D'];
const KIND_CODE: Record<RowKind, number> = { '+I': 0, '-U': 1, '+U': 2, '-D': 3 };

/** Fewer rows than this are not worth a columnar layout. */
const MIN_COLUMNAR = 16;

export function encodeBatch(els: Element[], enc: BatchEncoding, transfer: Transferable[]): WireBatch {
  if (enc === 'plain' || els.length < MIN_COLUMNAR) return { enc: 'plain', els };
  const rows = els.map((e) => e.row);
  const n = els.length;
  const arena = new WireArena(arenaEstimate(rows[0], n));
  const columns = columnsOf(rows, arena, 0);
  if (!columns) return { enc: 'plain', els };
  const kinds = arena.u8(n);
  const ts = arena.f64(n);
  let at: Float64Array | undefined;
  for (let i = 0; i < n; i++) {
    const e = els[i];
    kinds[i] = KIND_CODE[e.kind];
    ts[i] = e.ts === null ? NaN : e.ts;
    if (e.at !== undefined) {
      if (!at) (at = arena.f64(n)).fill(NaN);
      at[i] = e.at;
    }
  }
  arena.transferTo(transfer);
  const { fields, cols } = columns;
  return at ? { enc: 'columnar', n, fields, kinds, ts, at, cols } : { enc: 'columnar', n, fields, kinds, ts, cols };
}

export function decodeBatch(b: WireBatch): Element[] {
  if (b.enc === 'plain') return b.els;
  const { n, fields, kinds, ts } = b;
  const cols = b.cols.map((c) => columnValues(c, n));
  const make = rowMaker(fields);
  const out = new Array<Element>(n);
  const at = b.at;
  for (let i = 0; i < n; i++) {
    const t = ts[i];
    const a = at ? at[i] : NaN;
    out[i] = a !== a ? { kind: KINDS[kinds[i]], row: make(cols, i), ts: t !== t ? null : t } : { kind: KINDS[kinds[i]], row: make(cols, i), ts: t !== t ? null : t, at: a };
  }
  return out;
}
