// Test-only: a seeded history of changes to an accounts table, written in each changelog format,
// with the final table those changes leave behind (what the SQL oracle compares against).
import { seededRng } from '../../core/rng.ts';
import type { Row } from '../../core/types.ts';
import { START } from './inputs.ts';

export interface Account extends Row {
  acct: string;
  region: string | null;
  tier: string;
  balance: number;
  ts: number;
}

export type Change = { op: 'insert'; row: Account } | { op: 'update'; before: Account; row: Account } | { op: 'delete'; before: Account };

export interface History {
  changes: Change[];
  /** The table after every change, in no particular order. */
  final: Account[];
}

/**
 * `n` changes over `keys` accounts: a missing key is inserted, a present one is updated (80 %) or
 * deleted. Updates often move an account to another region or tier, so groups and ranks change.
 * Event times increase, so nothing downstream is ever late.
 */
export function accountHistory(n: number, keys: number, seed: number): History {
  const rng = seededRng(seed);
  const table = new Map<string, Account>();
  const changes: Change[] = [];
  for (let i = 0; i < n; i++) {
    const acct = `a${rng.int(keys)}`;
    const row: Account = {
      acct,
      region: rng.next() < 0.03 ? null : `r${rng.int(rng.next() < 0.5 ? 3 : 9)}`,
      tier: rng.pick(['bronze', 'silver', 'gold']),
      balance: Math.round((rng.next() * 2_000 - 500) * 100) / 100,
      ts: START + i * 10,
    };
    const before = table.get(acct);
    if (!before) {
      table.set(acct, row);
      changes.push({ op: 'insert', row });
    } else if (rng.next() < 0.8) {
      table.set(acct, row);
      changes.push({ op: 'update', before, row });
    } else {
      table.delete(acct);
      changes.push({ op: 'delete', before });
    }
  }
  return { changes, final: [...table.values()] };
}

/** Debezium envelopes with full before images (REPLICA IDENTITY FULL); initial rows come as snapshot reads. */
export function debeziumFull(h: History): Row[] {
  return h.changes.map((c, i) => {
    if (c.op === 'insert') return { before: null, after: c.row, op: i % 5 === 0 ? 'r' : 'c', ts_ms: c.row.ts };
    if (c.op === 'update') return { before: c.before, after: c.row, op: 'u', ts_ms: c.row.ts };
    return { before: c.before, after: null, op: 'd', ts_ms: c.before.ts };
  });
}

/**
 * Debezium as a database without full images sends it: updates have no before, deletes carry only
 * the key, and the connector re-sends some events after a restart (at-least-once delivery), and
 * wraps every other record in a `payload` envelope (schemas.enable = true). Only a source that
 * normalizes by primary key reads this correctly.
 */
export function debeziumKeyOnly(h: History): Row[] {
  const out: Row[] = [];
  h.changes.forEach((c, i) => {
    let e: Row;
    if (c.op === 'insert') e = { before: null, after: c.row, op: 'c' };
    else if (c.op === 'update') e = { before: null, after: c.row, op: 'u' };
    else e = { before: { acct: c.before.acct }, after: null, op: 'd' };
    out.push(i % 2 ? { schema: {}, payload: e } : e);
    if (i % 17 === 0) out.push(e);
  });
  return out;
}

/** The fields of `after` whose values differ in `before`, with their old values: Canal's and Maxwell's `old`. */
function changedFields(before: Row, after: Row): Row {
  const old: Row = {};
  for (const [k, v] of Object.entries(before)) if (after[k] !== v) old[k] = v;
  return old;
}

/**
 * Canal's flat messages: a `data` array (consecutive inserts batched two to a message, as Canal
 * batches a transaction's rows), `old` with only the changed fields of an update, and a DDL
 * message now and then that changes no rows.
 */
export function canalJson(h: History): Row[] {
  const out: Row[] = [];
  const meta = { database: 'bank', table: 'accounts', isDdl: false, pkNames: ['acct'] };
  let pending: Row[] = [];
  const flush = () => {
    if (pending.length) out.push({ ...meta, type: 'INSERT', data: pending });
    pending = [];
  };
  h.changes.forEach((c, i) => {
    if (c.op === 'insert') {
      pending.push(c.row);
      if (pending.length === 2) flush();
      return;
    }
    flush();
    if (c.op === 'update') out.push({ ...meta, type: 'UPDATE', data: [c.row], old: [changedFields(c.before, c.row)] });
    else out.push({ ...meta, type: 'DELETE', data: [c.before] });
    if (i % 97 === 0) out.push({ ...meta, isDdl: true, type: 'ALTER', data: null, sql: 'ALTER TABLE accounts ADD COLUMN note VARCHAR(20)' });
  });
  flush();
  return out;
}

/** Maxwell's messages: one row each, `old` with only the changed fields of an update. */
export function maxwellJson(h: History): Row[] {
  const meta = { database: 'bank', table: 'accounts' };
  return h.changes.map((c) => {
    if (c.op === 'insert') return { ...meta, type: 'insert', data: c.row };
    if (c.op === 'update') return { ...meta, type: 'update', data: c.row, old: changedFields(c.before, c.row) };
    return { ...meta, type: 'delete', data: c.before };
  });
}

export function changelogJson(h: History): Row[] {
  const out: Row[] = [];
  for (const c of h.changes) {
    if (c.op === 'insert') out.push({ data: c.row, op: '+I' });
    else if (c.op === 'update') out.push({ data: c.before, op: '-U' }, { data: c.row, op: '+U' });
    else out.push({ data: c.before, op: '-D' });
  }
  return out;
}

/**
 * upsert-kafka records: `{ key, value }`, a null value deleting the key. Some values are repeated
 * unchanged and some deletes name keys that do not exist; both must leave the table as it is.
 */
export function upserts(h: History): Row[] {
  const out: Row[] = [];
  h.changes.forEach((c, i) => {
    if (c.op === 'delete') out.push({ key: { acct: c.before.acct }, value: null });
    else {
      const { acct, ...value } = c.row;
      out.push(i % 3 ? { key: { acct }, value } : c.row);
      if (i % 11 === 0) out.push({ key: { acct }, value });
    }
    if (i % 23 === 0) out.push({ key: { acct: `ghost${i}` }, value: null });
  });
  return out;
}

export const accountSchema = { acct: 'string', region: 'string', tier: 'string', balance: 'number', ts: 'timestamp' };
