import type { Element, Row, RowKind } from '../../core/types.ts';
import { objectLiteralFunction } from '../../core/objectLiteral.ts';
import { WireArena } from './wireArena.ts';

/**
 * Batch encodings for records that cross a worker boundary. `plain` hands the Element array to
 * structured clone as it is; `columnar` turns a batch whose rows share one shape into one column
 * per field: kinds, timestamps and all-number fields as typed arrays that are transferred, not
 * copied (all of a batch's in one buffer, see WireArena), strings as a table of the batch's
 * distinct strings plus indexes, anything else as the values themselves. docs/runtime.md has the measurements that picked the default.
 */
export type BatchEncoding = 'plain' | 'columnar';

/** One field of a columnar batch. */
export type WireColumn =
  /** Every value is a number. */
  | Float64Array
  /** Numbers and nulls: `nulls[i]` is 1 where the value is null. */
  | { t: 'num?'; v: Float64Array; nulls: Uint8Array }
  /** Strings and nulls: `idx[i]` points into `strings`, NULL_INDEX marks null. */
  | { t: 'str'; strings: string[]; idx: Uint32Array }
  /** Plain records of one shape (a snapshot cell's value, a row inside a row), as columns of their own. */
  | { t: 'rec'; fields: string[]; cols: WireColumn[] }
  /** Anything else, as structured clone carries it. */
  | { t: 'any'; v: unknown[] };

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
const NULL_INDEX = 0xffffffff;

/** Fewer rows than this are not worth a columnar layout. */
const MIN_COLUMNAR = 16;
/**
 * Records inside records are taken apart this many levels deep; deeper ones (and cyclic ones)
 * go as values, which structured clone carries.
 */
const MAX_DEPTH = 3;

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

/**
 * Bytes a batch of `n` rows shaped like `first` needs when its other rows hold the same types:
 * kinds, timestamps, a number column per number field and string indexes per string field,
 * records inside records field by field. Null masks, record origins and what else does not fit
 * go to a further chunk.
 */
function arenaEstimate(first: unknown, n: number): number {
  return align8(n) + 8 * n + bytesPerRow(first, 0) * n;
}

function bytesPerRow(v: unknown, depth: number): number {
  if (typeof v === 'number') return 8;
  // A number column and its null mask, or both given up for string indexes.
  if (v === null) return 13;
  if (typeof v === 'string') return 4;
  if (depth >= MAX_DEPTH || !isRecord(v)) return 0;
  let b = 0;
  for (const f in v) b += bytesPerRow(v[f], depth + 1);
  return b;
}

const align8 = (bytes: number): number => (bytes + 7) & ~7;

/** Rows of one shape as columns, or as they are (different shapes, values that are not records). */
export type PackedRows = { t: 'packedRows'; chunks: ({ n: number; fields: string[]; cols: WireColumn[] } | { rows: unknown[] })[] };

const ROWS_PER_CHUNK = 4096;

/**
 * A long list of rows (an inline source's input, a view's rows, a snapshot's cells) for a trip
 * between threads: structured clone costs 3–5 µs per small object here, columns a few ns per
 * value. Typed arrays are transferred only when given `transfer` (an inline source's rows may
 * be sent again, so they are copied).
 */
export function packRows(rows: readonly unknown[], transfer: Transferable[] = []): PackedRows {
  const chunks: PackedRows['chunks'] = [];
  const arena = new WireArena(arenaEstimate(rows[0], rows.length));
  for (let at = 0; at < rows.length; at += ROWS_PER_CHUNK) {
    const part = rows.slice(at, at + ROWS_PER_CHUNK);
    const columns = columnsOf(part, arena, 0);
    chunks.push(columns ? { n: part.length, ...columns } : { rows: part });
  }
  arena.transferTo(transfer);
  return { t: 'packedRows', chunks };
}

export const isPackedRows = (v: unknown): v is PackedRows => typeof v === 'object' && v !== null && (v as PackedRows).t === 'packedRows' && Array.isArray((v as PackedRows).chunks);

export function unpackRows(p: PackedRows): unknown[] {
  const out: unknown[] = [];
  for (const c of p.chunks) {
    if ('rows' in c) {
      for (const r of c.rows) out.push(r);
      continue;
    }
    const cols = c.cols.map((col) => columnValues(col, c.n));
    const make = rowMaker(c.fields);
    for (let i = 0; i < c.n; i++) out.push(make(cols, i));
  }
  return out;
}

/**
 * Rows that all have the same field names in the same order (so absent stays absent) as one
 * column per field; null when shapes differ. One walk over the rows checks the shape, fills
 * every field that holds only numbers (and nulls) straight into its typed array and copies the
 * other fields' values into a dense list each, reading each value through for…in, whose keyed
 * loads V8 serves from the enum cache. Those lists are encoded by type afterwards: the rows are
 * read once, which matters for long lists of old objects (a snapshot's cells, scattered in the
 * heap), where every further pass over the rows missed the cache again.
 */
function columnsOf(rows: readonly unknown[], arena: WireArena, depth: number): { fields: string[]; cols: WireColumn[] } | null {
  const first = rows[0];
  if (!isRecord(first)) return null;
  const fields = Object.keys(first);
  // A `__proto__` key cannot be rebuilt as an own field by assignment or a literal.
  if (fields.includes('__proto__')) return null;
  const width = fields.length;
  const n = rows.length;
  // Only fields that start with a number or null get a number column: the others would leave theirs unused.
  const nums: (Float64Array | null)[] = fields.map((f) => (typeof first[f] === 'number' || first[f] === null ? arena.f64(n) : null));
  const nulls: (Uint8Array | null)[] = fields.map(() => null);
  const values: (unknown[] | null)[] = nums.map((col) => (col === null ? new Array<unknown>(n) : null));
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    if (!isRecord(r)) return null;
    let k = 0;
    for (const f in r) {
      if (k >= width || fields[k] !== f) return null;
      const v = r[f];
      const col = nums[k];
      if (col === null) values[k]![i] = v;
      else if (typeof v === 'number') col[i] = v;
      else if (v === null) (nulls[k] ??= arena.u8(n))[i] = 1;
      else {
        // Not a number field after all: its values so far move to a list (a Float64Array keeps -0 and NaN).
        const list = (values[k] = new Array<unknown>(n));
        const mask = nulls[k];
        for (let j = 0; j < i; j++) list[j] = mask !== null && mask[j] === 1 ? null : col[j];
        list[i] = v;
        nums[k] = null;
      }
      k++;
    }
    if (k !== width) return null;
  }
  const cols = fields.map((_, k): WireColumn => {
    const v = nums[k];
    const mask = nulls[k];
    if (v === null) return encodeColumn(values[k]!, arena, depth);
    // Fields of nulls only go as values, as other fields do.
    if (mask !== null && mask.every((x) => x === 1)) return { t: 'any', v: new Array<null>(n).fill(null) };
    if (mask === null) return v;
    return { t: 'num?', v, nulls: mask };
  });
  return { fields, cols };
}

function isRecord(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** One field's values (not all numbers and nulls) as a column. */
function encodeColumn(values: unknown[], arena: WireArena, depth: number): WireColumn {
  const n = values.length;
  let strings = 0;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'string') strings++;
    else if (v === null) nulls++;
    else if (i === 0 && depth < MAX_DEPTH && isRecord(v)) return recordColumn(values, arena, depth);
    else return { t: 'any', v: values };
  }
  if (strings === 0) return { t: 'any', v: values };
  // Keys, categories and names repeat within a batch: each distinct string is cloned once.
  // A run of one string (a snapshot cell's state name and kind) skips the table.
  const table = new Map<string, number>();
  const list: string[] = [];
  const idx = arena.u32(n);
  let last: unknown = undefined;
  let lastAt = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as string | null;
    if (v === null) {
      idx[i] = NULL_INDEX;
      continue;
    }
    if (v !== last) {
      let at = table.get(v);
      if (at === undefined) {
        at = list.length;
        table.set(v, at);
        list.push(v);
      }
      last = v;
      lastAt = at;
    }
    idx[i] = lastAt;
  }
  return { t: 'str', strings: list, idx };
}

/**
 * A column whose first value is a record: columns of their own when every value is a record of
 * that shape and nothing inside is an object left as it is, which could refer back to a record
 * rebuilt on arrival (a cycle structured clone keeps). Rows are values: one record under two
 * fields arrives as two equal records.
 */
function recordColumn(values: unknown[], arena: WireArena, depth: number): WireColumn {
  // Columns given up on leave their room in the arena unused.
  const columns = columnsOf(values, arena, depth + 1);
  if (!columns || columns.cols.some(holdsObjects)) return { t: 'any', v: values };
  return { t: 'rec', ...columns };
}

const holdsObjects = (c: WireColumn): boolean => !(c instanceof Float64Array) && c.t === 'any' && c.v.some((v) => typeof v === 'object' && v !== null);

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

/** A column as something indexable by row. */
function columnValues(c: WireColumn, n: number): ArrayLike<unknown> {
  if (c instanceof Float64Array) return c;
  switch (c.t) {
    case 'any':
      return c.v;
    case 'num?': {
      const out = new Array<number | null>(n);
      for (let i = 0; i < n; i++) out[i] = c.nulls[i] ? null : c.v[i];
      return out;
    }
    case 'str': {
      const out = new Array<string | null>(n);
      for (let i = 0; i < n; i++) out[i] = c.idx[i] === NULL_INDEX ? null : c.strings[c.idx[i]];
      return out;
    }
    case 'rec': {
      const cols = c.cols.map((col) => columnValues(col, n));
      const make = rowMaker(c.fields);
      const out = new Array<Row>(n);
      for (let i = 0; i < n; i++) out[i] = make(cols, i);
      return out;
    }
  }
}

type RowMaker = (cols: readonly ArrayLike<unknown>[], i: number) => Row;

const makers = new Map<string, RowMaker>();
const MAX_MAKERS = 256;

/** Builds the row of one shape: a compiled object literal, or field by field where none can be compiled. */
function rowMaker(fields: readonly string[]): RowMaker {
  const sig = fields.join('\u0000');
  const known = makers.get(sig);
  if (known) return known;
  let make = objectLiteralFunction<RowMaker>(['c', 'i'], fields, (k) => `c[${k}][i]`);
  if (!make) {
    const width = fields.length;
    make = (cols, i) => {
      const row: Row = {};
      for (let k = 0; k < width; k++) row[fields[k]] = cols[k][i];
      return row;
    };
  }
  if (makers.size >= MAX_MAKERS) makers.clear();
  makers.set(sig, make);
  return make;
}
