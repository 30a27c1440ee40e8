import type { Row, RowKind } from './types.ts';

/** How a source's records encode a changelog (Flink formats / connectors of the same name). */
export type ChangelogFormat = 'debezium-json' | 'canal-json' | 'maxwell-json' | 'changelog-json' | 'upsert';
export const CHANGELOG_FORMATS: readonly ChangelogFormat[] = ['debezium-json', 'canal-json', 'maxwell-json', 'changelog-json', 'upsert'];

export interface ChangelogInput {
  format: ChangelogFormat;
  /** The table's primary key. Required for `upsert`; with the other formats it turns on normalization. */
  primaryKey?: string[];
}

export interface DecodedChange {
  kind: RowKind;
  row: Row;
}

/** One decoded record: its changes (possibly none, e.g. a tombstone) or why it cannot be read. */
export type Decoded = { changes: DecodedChange[] } | { error: string };

const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
const NONE: Decoded = { changes: [] };

/**
 * Turns changelog records into +I/-U/+U/-D. With a primary key it keeps the latest row per key
 * (Flink's ChangelogNormalize): every retraction then carries exactly the row downstream saw,
 * duplicated or out-of-date events cannot corrupt aggregates, and an update without a before image
 * (Debezium without REPLICA IDENTITY FULL) still retracts correctly. Without a key it trusts the
 * before images. The table is part of the source's snapshot, so a restore resumes with it.
 */
export class ChangelogDecoder {
  private readonly table = new Map<string, Row>();
  private readonly key: string[] | null;

  constructor(
    readonly input: ChangelogInput,
    /** Validates and normalizes a row (declared types); returns why it is bad, or null. */
    private readonly check: (row: Row) => string | null,
  ) {
    this.key = input.primaryKey?.length ? input.primaryKey : null;
  }

  decode(value: unknown): Decoded {
    switch (this.input.format) {
      case 'debezium-json':
        return this.debezium(value);
      case 'canal-json':
        return this.canal(value);
      case 'maxwell-json':
        return this.maxwell(value);
      case 'changelog-json':
        return this.changelogJson(value);
      case 'upsert':
        return this.upsert(value);
    }
  }

  snapshot(): [string, Row][] | undefined {
    return this.key ? [...this.table] : undefined;
  }

  restore(entries: [string, Row][] | undefined): void {
    this.table.clear();
    for (const [k, r] of entries ?? []) this.table.set(k, r);
  }

  private debezium(value: unknown): Decoded {
    // A Kafka tombstone follows every Debezium delete; Flink's debezium-json skips it too.
    if (value === null) return NONE;
    if (!isObject(value)) return { error: 'a Debezium record must be a JSON object' };
    const env = isObject(value.payload) && 'op' in value.payload ? value.payload : value;
    const op = env.op;
    const before = env.before;
    const after = env.after;
    switch (op) {
      case 'c':
      case 'r':
        if (!isObject(after)) return { error: `Debezium op "${op}" needs an "after" object` };
        return this.key ? this.upsertRow(after) : this.emit([['+I', after]]);
      case 'u':
        if (!isObject(after)) return { error: 'Debezium op "u" needs an "after" object' };
        if (this.key) return this.upsertRow(after);
        if (!isObject(before)) return { error: 'Debezium op "u" has no "before" image; declare the primary key so the source can retract the previous row' };
        return this.emit([['-U', before], ['+U', after]]);
      case 'd':
        if (!isObject(before)) return { error: 'Debezium op "d" needs a "before" object (at least the primary key)' };
        return this.key ? this.deleteRow(before) : this.emit([['-D', before]]);
      default:
        return { error: `unknown Debezium op ${JSON.stringify(op)}; expected c, r, u or d` };
    }
  }

  /**
   * Canal: `{type, data: [rows], old: [changed fields' previous values], isDdl}`, one change per
   * row of `data`. An update's before image is its after image with `old`'s fields put back, as
   * Flink's canal-json builds it; DDL records and statement records (CREATE, QUERY) are skipped.
   */
  private canal(value: unknown): Decoded {
    if (value === null) return NONE;
    if (!isObject(value)) return { error: 'a Canal record must be a JSON object' };
    if (value.isDdl === true) return NONE;
    const type = typeof value.type === 'string' ? value.type.toUpperCase() : value.type;
    // Canal's statement records (CREATE, QUERY) change no rows; Flink's canal-json skips them too.
    if (type === 'CREATE' || type === 'QUERY') return NONE;
    if (type !== 'INSERT' && type !== 'UPDATE' && type !== 'DELETE') return { error: `unknown Canal type ${JSON.stringify(value.type)}; expected INSERT, UPDATE or DELETE (or a DDL record, which is skipped)` };
    const data = value.data;
    if (!Array.isArray(data) || !data.every(isObject)) return { error: `Canal type "${type}" needs "data", an array of row objects` };
    const old = Array.isArray(value.old) ? value.old : [];
    if (type === 'UPDATE' && (old.length !== data.length || !old.every(isObject))) return { error: 'Canal type "UPDATE" needs "old", one object of previous values per row of "data"' };
    const rows = data as Row[];
    return this.dml(type, rows.map((after, i) => ({ after, old: (old[i] as Row | undefined) ?? null })), 'Canal');
  }

  /** Maxwell: `{type: insert|update|delete, data: row, old: changed fields' previous values}`. */
  private maxwell(value: unknown): Decoded {
    if (value === null) return NONE;
    if (!isObject(value)) return { error: 'a Maxwell record must be a JSON object' };
    const type = typeof value.type === 'string' ? value.type.toUpperCase() : value.type;
    if (type !== 'INSERT' && type !== 'UPDATE' && type !== 'DELETE') return { error: `unknown Maxwell type ${JSON.stringify(value.type)}; expected insert, update or delete` };
    if (!isObject(value.data)) return { error: `Maxwell type "${String(value.type)}" needs a "data" object` };
    const old = isObject(value.old) ? value.old : null;
    if (type === 'UPDATE' && !old) return { error: 'Maxwell type "update" needs an "old" object with the previous values of the changed fields' };
    return this.dml(type, [{ after: value.data, old }], 'Maxwell');
  }

  /** INSERT, UPDATE or DELETE of rows given as after images and, for updates, the changed fields' old values. */
  private dml(type: 'INSERT' | 'UPDATE' | 'DELETE', rows: { after: Row; old: Row | null }[], format: string): Decoded {
    // Every row is checked before any changes the key table, so a bad row fails the whole record.
    for (const [i, { after, old }] of rows.entries()) {
      const bad = this.check(after) ?? (old && !this.key ? this.check({ ...after, ...old }) : null) ?? (this.key ? this.keyError(after) : null);
      if (bad) return { error: rows.length > 1 ? `${format} row ${i + 1}: ${bad}` : bad };
    }
    const out: DecodedChange[] = [];
    for (const { after, old } of rows) {
      const one: Decoded = type === 'INSERT' ? (this.key ? this.upsertRow(after) : this.emit([['+I', after]]))
        : type === 'DELETE' ? (this.key ? this.deleteRow(after) : this.emit([['-D', after]]))
        : this.key ? this.upsertRow(after) : this.emit([['-U', { ...after, ...old }], ['+U', after]]);
      if ('error' in one) return one;
      out.push(...one.changes);
    }
    return { changes: out };
  }

  private changelogJson(value: unknown): Decoded {
    if (!isObject(value)) return { error: 'a changelog-json record must be a JSON object' };
    const { op, data } = value;
    if (op !== '+I' && op !== '-U' && op !== '+U' && op !== '-D') return { error: `unknown changelog-json op ${JSON.stringify(op)}; expected +I, -U, +U or -D` };
    if (!isObject(data)) return { error: `changelog-json op "${op}" needs a "data" object` };
    if (!this.key) return this.emit([[op, data]]);
    // Normalized: the -U is redundant (the +U replaces the row), a -D retracts what the table holds.
    if (op === '-U') return NONE;
    return op === '-D' ? this.deleteRow(data) : this.upsertRow(data);
  }

  /**
   * upsert-kafka: `{ "key": {...}, "value": {...} | null }` (a null value deletes the key), or a
   * flat row that is upserted by its own primary-key fields.
   */
  private upsert(value: unknown): Decoded {
    if (!isObject(value)) return { error: 'an upsert record must be a JSON object' };
    const keys = Object.keys(value);
    const enveloped = 'key' in value && 'value' in value && keys.length === 2 && isObject(value.key);
    if (!enveloped) return this.upsertRow(value);
    const k = value.key as Row;
    if (value.value === null) return this.deleteRow(k);
    if (!isObject(value.value)) return { error: 'an upsert record\'s "value" must be an object, or null to delete the key' };
    return this.upsertRow({ ...value.value, ...k });
  }

  private keyError(row: Row): string | null {
    const k = this.keyOf(row);
    return typeof k === 'string' ? null : k.error;
  }

  private keyOf(row: Row): string | { error: string } {
    const vals: unknown[] = [];
    for (const f of this.key!) {
      const v = row[f];
      if (v === undefined || v === null) return { error: `primary-key field "${f}" is missing or null` };
      vals.push(v);
    }
    return JSON.stringify(vals);
  }

  private upsertRow(row: Row): Decoded {
    const bad = this.check(row);
    if (bad) return { error: bad };
    const k = this.keyOf(row);
    if (typeof k !== 'string') return k;
    const prev = this.table.get(k);
    this.table.set(k, row);
    if (!prev) return { changes: [{ kind: '+I', row }] };
    // An update that changes nothing would make every operator downstream retract and re-add.
    if (sameRow(prev, row)) return NONE;
    return { changes: [{ kind: '-U', row: prev }, { kind: '+U', row }] };
  }

  private deleteRow(keyRow: Row): Decoded {
    const k = this.keyOf(keyRow);
    if (typeof k !== 'string') return k;
    const prev = this.table.get(k);
    // Flink drops a delete for a key it never saw: there is nothing to retract.
    if (!prev) return NONE;
    this.table.delete(k);
    return { changes: [{ kind: '-D', row: prev }] };
  }

  private emit(pairs: [RowKind, Row][]): Decoded {
    for (const [, row] of pairs) {
      const bad = this.check(row);
      if (bad) return { error: bad };
    }
    return { changes: pairs.map(([kind, row]) => ({ kind, row })) };
  }
}

function sameRow(a: Row, b: Row): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** The data rows inside changelog records (for guessing a schema from samples). */
export function changeRows(format: ChangelogFormat, records: readonly unknown[]): Row[] {
  const out: Row[] = [];
  for (const r of records) {
    if (!isObject(r)) continue;
    const env = isObject(r.payload) && 'op' in r.payload ? r.payload : r;
    if (format === 'debezium-json') {
      if (isObject(env.after)) out.push(env.after);
      else if (isObject(env.before)) out.push(env.before);
    } else if (format === 'changelog-json') {
      if (isObject(r.data)) out.push(r.data);
    } else if ('key' in r && 'value' in r && isObject(r.key)) {
      out.push(isObject(r.value) ? { ...r.value, ...r.key } : r.key);
    } else out.push(r);
  }
  return out;
}
