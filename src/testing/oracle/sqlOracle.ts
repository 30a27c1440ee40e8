// Test-only: a real SQL engine (SQLite compiled to wasm by sql.js) that computes in batch
// what Weir computes incrementally, so that oracle tests can compare final views with it.
import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';

export type ColumnType = 'INTEGER' | 'REAL' | 'TEXT';
export type Columns = Record<string, ColumnType>;
export type PlainRow = Record<string, unknown>;

let sqlModule: Promise<SqlJsStatic> | null = null;

/** Loads sql.js once per test worker; in Node it finds its wasm next to itself in node_modules. */
export function loadSql(): Promise<SqlJsStatic> {
  sqlModule ??= initSqlJs();
  return sqlModule;
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** One in-memory SQLite database holding the source rows of one run. */
export class SqlOracle {
  private constructor(private readonly db: Database) {}

  static async open(): Promise<SqlOracle> {
    const SQL = await loadSql();
    return new SqlOracle(new SQL.Database());
  }

  /** Creates `name` with the declared columns and inserts the rows; a field absent from a row is NULL. */
  table(name: string, columns: Columns, rows: readonly PlainRow[]): this {
    const names = Object.keys(columns);
    if (names.length === 0) throw new Error(`table ${name}: no columns`);
    this.db.run(`CREATE TABLE ${quote(name)} (${names.map((c) => `${quote(c)} ${columns[c]}`).join(', ')})`);
    const insert = this.db.prepare(`INSERT INTO ${quote(name)} VALUES (${names.map(() => '?').join(', ')})`);
    this.db.run('BEGIN');
    try {
      for (const row of rows) insert.run(names.map((c) => toSql(row[c], columns[c], `${name}.${c}`)));
      this.db.run('COMMIT');
    } finally {
      insert.free();
    }
    return this;
  }

  /** Runs one SELECT; every result row becomes a plain object keyed by column name. */
  query(sql: string): PlainRow[] {
    const results = this.db.exec(sql);
    if (results.length === 0) return [];
    const { columns, values } = results[results.length - 1];
    return values.map((v) => Object.fromEntries(columns.map((c, i) => [c, v[i]])));
  }

  close(): void {
    this.db.close();
  }
}

function toSql(v: unknown, type: ColumnType, where: string): SqlValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'string') {
    if (type === 'TEXT' && typeof v !== 'string') throw new Error(`${where}: declared TEXT, got ${v}`);
    if (type !== 'TEXT' && typeof v !== 'number') throw new Error(`${where}: declared ${type}, got "${v}"`);
    return v;
  }
  // An ARRAY, MAP or ROW value is its JSON text, which SQLite's json_each and json_extract read.
  if (typeof v === 'object' && type === 'TEXT') return JSON.stringify(v);
  throw new Error(`${where}: cannot store ${JSON.stringify(v)} in SQL`);
}

/** Column types from the values seen: all-integer numbers are INTEGER, other numbers REAL, the rest TEXT. */
export function inferColumns(rows: readonly PlainRow[]): Columns {
  const kinds = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      const seen = kinds.get(k) ?? new Set<string>();
      kinds.set(k, seen);
      if (v === null || v === undefined) continue;
      seen.add(typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'real') : typeof v === 'boolean' ? 'int' : 'text');
    }
  }
  const out: Columns = {};
  for (const [k, seen] of kinds) out[k] = seen.has('text') ? 'TEXT' : seen.has('real') ? 'REAL' : 'INTEGER';
  return out;
}

/** SQLite has no boolean and no "absent": booleans become 0/1, -0 becomes 0, undefined becomes NULL. */
export function normalizeValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && v === 0) return 0;
  return v;
}

function normalizeRow(row: PlainRow): PlainRow {
  const out: PlainRow = {};
  for (const k of Object.keys(row).sort()) {
    const v = normalizeValue(row[k]);
    if (v !== null) out[k] = v;
  }
  return out;
}

/**
 * Rows with normalized values and sorted keys, in a canonical order. A NULL field is dropped:
 * an absent field reads as NULL in Weir, as a missing column does in SQL.
 */
export function canonicalRows(rows: readonly PlainRow[]): PlainRow[] {
  const keyed = rows.map(normalizeRow).map((r) => [JSON.stringify(r), r] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, r]) => r);
}

/** Equal within `tolerance`, relative to the larger magnitude once it exceeds 1 (sums of large amounts). */
export const closeEnough = (a: number, b: number, tolerance: number): boolean => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Bag comparison that forgives float noise: SQLite and JS add floats in different orders, so
 * columns holding any non-integer are compared with a tolerance; all other values exactly.
 * Rows are paired within groups that agree on every exact column, then greedily by closeness.
 */
export function compareBags(actual: readonly PlainRow[], expected: readonly PlainRow[], tolerance = 1e-6): { missing: PlainRow[]; extra: PlainRow[] } {
  const a = actual.map(normalizeRow);
  const e = expected.map(normalizeRow);
  const approx = new Set<string>();
  for (const rows of [a, e]) for (const r of rows) for (const k in r) if (typeof r[k] === 'number' && !Number.isInteger(r[k])) approx.add(k);
  const exactKey = (r: PlainRow): string => {
    let key = '';
    // normalizeRow already sorted the keys.
    for (const k in r) {
      const v = r[k];
      key += `${k}\u0000${typeof v === 'number' ? (approx.has(k) ? '#' : `n${v}`) : `s${String(v)}`}\u0001`;
    }
    return key;
  };
  const pending = new Map<string, PlainRow[]>();
  for (const r of e) {
    const k = exactKey(r);
    const group = pending.get(k);
    if (group) group.push(r);
    else pending.set(k, [r]);
  }
  const close = (r: PlainRow, c: PlainRow): boolean => {
    for (const k of approx) if (typeof r[k] === 'number' && !closeEnough(r[k] as number, c[k] as number, tolerance)) return false;
    return true;
  };
  const extra: PlainRow[] = [];
  for (const r of a) {
    const candidates = pending.get(exactKey(r)) ?? [];
    const i = candidates.findIndex((c) => close(r, c));
    if (i < 0) extra.push(r);
    else candidates.splice(i, 1);
  }
  return { missing: canonicalRows([...pending.values()].flat()), extra: canonicalRows(extra) };
}
