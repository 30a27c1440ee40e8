import type { Row } from '../../core/types.ts';
import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import { sharedId } from '../../core/sharedRows.ts';
import { copyRow, rowIdShape, ShapeCache } from './rowShapes.ts';

/**
 * Output column names of the right side. A right field whose name is already a left field
 * becomes `<name>_right`; while that name is taken too (by a left field or another right field),
 * `_right` is appended again. Every other right field keeps its name.
 */
export function renameRight(leftNames: ReadonlySet<string>, rightNames: readonly string[]): Record<string, string> {
  const taken = new Set([...leftNames, ...rightNames]);
  const out: Record<string, string> = {};
  for (const n of rightNames) {
    if (!leftNames.has(n)) {
      out[n] = n;
      continue;
    }
    let c = `${n}_right`;
    while (taken.has(c)) c += '_right';
    taken.add(c);
    out[n] = c;
  }
  return out;
}

/** Output schema: left fields, then the (renamed) right fields; unknown if either side is unknown. */
export function joinedFields(left: StreamInfo | undefined, right: StreamInfo | undefined): Record<string, FieldType> | null {
  if (!left?.fields || !right?.fields) return null;
  const names = renameRight(new Set(Object.keys(left.fields)), Object.keys(right.fields));
  const out: Record<string, FieldType> = { ...left.fields };
  for (const [f, t] of Object.entries(right.fields)) out[names[f]] = t;
  return out;
}

/** The output name of one right column, for StreamInfo fields such as the event-time field. */
export function rightColumnName(left: StreamInfo | undefined, right: StreamInfo | undefined, field: string): string {
  if (!left?.fields || !right?.fields) return field;
  return renameRight(new Set(Object.keys(left.fields)), Object.keys(right.fields))[field] ?? field;
}

/** Where each field of one side's rows goes in the output, worked out once per field list. */
interface ColumnPlan {
  fields: string[];
  /** `names[f]` of `namesFor` for each field, in field order. */
  targets: string[];
}

/**
 * Builds output rows. With both schemas known the renaming is fixed once; otherwise it is
 * decided per row from the fields at hand (the left key fields stand in for an unknown left schema,
 * so that padded rows name the right key columns as joined rows do). The renaming depends only
 * on the two field lists, so it is worked out once per pair of row shapes (see rowShapes.ts).
 */
export class RowJoiner {
  private readonly leftNames: string[] | null;
  private readonly leftSet: ReadonlySet<string>;
  private readonly rightNames: string[] | null;
  private readonly fixed: Record<string, string> | null;
  /** Left row shape → (right row shape → where the right fields go in `join`). */
  private readonly joinPlans = new ShapeCache((leftKeys: string[]) => new ShapeCache((rightKeys: string[]) => this.plan(leftKeys, rightKeys)));
  /** Left row shape → where the null right columns go in `padRight`. */
  private readonly padRightPlans = new ShapeCache((leftKeys: string[]) => this.plan(leftKeys, this.rightNames ?? []));
  /** Right row shape → where its fields go in `padLeft`. */
  private readonly padLeftPlans = new ShapeCache((rightKeys: string[]) => this.plan(null, rightKeys));

  constructor(
    left: StreamInfo | undefined,
    right: StreamInfo | undefined,
    private readonly leftKey: readonly string[],
  ) {
    this.leftNames = left?.fields ? Object.keys(left.fields) : null;
    this.rightNames = right?.fields ? Object.keys(right.fields) : null;
    this.leftSet = new Set(this.leftNames ?? []);
    this.fixed = this.leftNames && this.rightNames ? renameRight(new Set(this.leftNames), this.rightNames) : null;
  }

  /** The output names of `rightFields` next to a left row with fields `leftFields` (null: no left row). */
  private namesFor(leftFields: readonly string[] | null, rightFields: readonly string[]): Record<string, string> {
    if (this.fixed && rightFields.every((f) => f in this.fixed!) && (!leftFields || leftFields.every((f) => this.leftSet.has(f)))) return this.fixed;
    const left = new Set<string>(this.leftNames ?? this.leftKey);
    if (leftFields) for (const f of leftFields) left.add(f);
    return renameRight(left, [...new Set([...(this.rightNames ?? []), ...rightFields])]);
  }

  private plan(leftFields: readonly string[] | null, rightFields: string[]): ColumnPlan {
    const names = this.namesFor(leftFields, rightFields);
    return { fields: rightFields, targets: rightFields.map((f) => names[f]) };
  }

  join(l: Row, r: Row): Row {
    const leftKeys = Object.keys(l);
    const out = copyRow(l, leftKeys);
    const { fields, targets } = this.joinPlans.get(leftKeys).get(Object.keys(r));
    for (let i = 0; i < fields.length; i++) out[targets[i]] = r[fields[i]];
    return out;
  }

  /** A left row with every known right column set to null (LEFT/FULL OUTER JOIN). */
  padRight(l: Row): Row {
    const leftKeys = Object.keys(l);
    const out = copyRow(l, leftKeys);
    if (!this.rightNames) return out;
    const { targets } = this.padRightPlans.get(leftKeys);
    for (let i = 0; i < targets.length; i++) out[targets[i]] = null;
    return out;
  }

  /** A right row with every known left column set to null (RIGHT/FULL OUTER JOIN). */
  padLeft(r: Row): Row {
    const out: Row = {};
    for (const f of this.leftNames ?? []) out[f] = null;
    const { fields, targets } = this.padLeftPlans.get(Object.keys(r));
    for (let i = 0; i < fields.length; i++) out[targets[i]] = r[fields[i]];
    return out;
  }
}

/** Element time of a joined row: the later of both sides, ignoring a missing one. */
export function maxTs(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/** SQL equality never matches NULL, so a row with a NULL key field joins nothing. */
export const hasNullKey = (row: Row, fields: readonly string[]): boolean => fields.some((f) => row[f] === null || row[f] === undefined);

/**
 * NOT IN's comparison of left row l with right row r on `pair`: false only when both values are
 * there and differ. A NULL on either side makes `a = b` unknown, and unknown is not "certainly
 * different", so such a right row keeps the left row out of a NOT IN.
 */
export function notInMatches(pair: { left: string; right: string } | undefined, l: Row, r: Row): boolean {
  if (!pair) return true;
  const a = l[pair.left];
  const b = r[pair.right];
  return a === null || a === undefined || b === null || b === undefined || a === b;
}

/** Row identity for buffers: JSON with sorted keys, so field order does not split copies of one row. */
export function rowId(row: Row): string {
  // A replay's source rows are the objects the pass before made, and their ids with them.
  return sharedId(row, makeRowId);
}

function makeRowId(row: Row): string {
  const keys = Object.keys(row);
  const shape = rowIdShapes.get(keys);
  if (shape.general || !isPlainObject(row)) return sortedJson(row);
  // Only flat rows of plain values skip the replacer: nested objects have keys of their own to sort.
  for (let i = 0; i < keys.length; i++) {
    const v = row[keys[i]];
    const t = typeof v;
    if (t === 'object' ? v !== null : t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'undefined') return sortedJson(row);
  }
  const order = shape.order;
  if (!order) return JSON.stringify(row);
  const sorted: Row = {};
  for (let i = 0; i < order.length; i++) sorted[order[i]] = row[order[i]];
  return JSON.stringify(sorted);
}

const rowIdShapes = new ShapeCache(rowIdShape);

const isPlainObject = (v: object): boolean => {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/** The general rowId: every object's keys sorted by a replacer, however deep. */
export function sortedJson(row: Row): string {
  return JSON.stringify(row, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

export const JOIN_INSPECT_LIMIT = 500;
