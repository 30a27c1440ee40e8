import type { Row } from '../../core/types.ts';
import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';

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

/**
 * Builds output rows. With both schemas known the renaming is fixed once; otherwise it is
 * decided per row from the fields at hand (the left key fields stand in for an unknown left schema,
 * so that padded rows name the right key columns as joined rows do).
 */
export class RowJoiner {
  private readonly leftNames: string[] | null;
  private readonly leftSet: ReadonlySet<string>;
  private readonly rightNames: string[] | null;
  private readonly fixed: Record<string, string> | null;

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

  private namesFor(leftRow: Row | null, rightFields: readonly string[]): Record<string, string> {
    if (this.fixed && rightFields.every((f) => f in this.fixed!) && (!leftRow || Object.keys(leftRow).every((f) => this.leftSet.has(f)))) return this.fixed;
    const left = new Set<string>(this.leftNames ?? this.leftKey);
    if (leftRow) for (const f of Object.keys(leftRow)) left.add(f);
    return renameRight(left, [...new Set([...(this.rightNames ?? []), ...rightFields])]);
  }

  join(l: Row, r: Row): Row {
    const out: Row = { ...l };
    const names = this.namesFor(l, Object.keys(r));
    for (const [f, v] of Object.entries(r)) out[names[f]] = v;
    return out;
  }

  /** A left row with every known right column set to null (LEFT/FULL OUTER JOIN). */
  padRight(l: Row): Row {
    const out: Row = { ...l };
    if (!this.rightNames) return out;
    const names = this.namesFor(l, this.rightNames);
    for (const f of this.rightNames) out[names[f]] = null;
    return out;
  }

  /** A right row with every known left column set to null (RIGHT/FULL OUTER JOIN). */
  padLeft(r: Row): Row {
    const out: Row = {};
    for (const f of this.leftNames ?? []) out[f] = null;
    const names = this.namesFor(null, Object.keys(r));
    for (const [f, v] of Object.entries(r)) out[names[f]] = v;
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

/** Row identity for buffers: JSON with sorted keys, so field order does not split copies of one row. */
export function rowId(row: Row): string {
  return JSON.stringify(row, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

export const JOIN_INSPECT_LIMIT = 500;
