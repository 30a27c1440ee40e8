import type { OperatorContext } from '../operator.ts';
import type { Element, Key, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { keySelector, WHOLE_ROW } from '../../core/keys.ts';
import type { KeyFields } from '../../core/keys.ts';
import { valueState } from '../../state/descriptors.ts';

interface Copies {
  row: Row;
  n: number;
}

/**
 * What a table is keyed by: its primary key, or else the whole row (a multiset). A sink's input
 * is partitioned by exactly this, so each key's changes meet its state in one subtask and a
 * restore puts that state back where the key's later changes will arrive.
 */
export function tableKey(primaryKey: readonly string[] | null): KeyFields {
  return primaryKey && primaryKey.length ? primaryKey : WHOLE_ROW;
}

/**
 * A table that applies a changelog: by primary key when one is given (upsert),
 * otherwise as a multiset of whole rows. It lives in keyed state, so checkpoints cover it.
 */
export function changelogTable(ctx: OperatorContext, primaryKey: string[] | null) {
  const key = tableKey(primaryKey);
  const byKey = key === WHOLE_ROW ? null : keySelector(key);
  // Flink's upsert sink: when the table's key is the unique key of its input, every -U is
  // followed by the +U of the same key, which overwrites the row. Applying the -U would delete
  // the row only to insert it again (two map operations and a new cell per update).
  const upsert = byKey !== null && sameFields(primaryKey!, ctx.inputs.in?.uniqueKey ?? null);
  const rowState = ctx.state.value(valueState<Row>('row'));
  const copies = ctx.state.value(valueState<Copies>('copies'));
  // Flink's SinkUpsertMaterializer: when the table's key is not its input's unique key, the
  // changes of one table key may belong to different input rows (a left join's padded row and
  // the joined row replacing it), and a retraction must remove only its own row. Every live row
  // of the key is kept, in arrival order; the table shows the latest one.
  const materialized = ctx.state.value(valueState<Row[]>('materialized'));
  const materialize = byKey !== null && !upsert;
  return {
    apply(el: Element): void {
      if (materialize) {
        ctx.state.setCurrentKey(byKey(el.row));
        const live = materialized.value() ?? [];
        if (isAddition(el.kind)) return materialized.update([...live, el.row]);
        const at = lastIndexOfRow(live, el.row);
        if (at < 0) return ctx.deadLetter(`${el.kind} for a row the table does not hold`, el.row);
        const rest = live.filter((_, i) => i !== at);
        if (rest.length) materialized.update(rest);
        else materialized.clear();
        return;
      }
      if (byKey) {
        if (el.kind === '-U') return;
        ctx.state.setCurrentKey(byKey(el.row));
        if (isAddition(el.kind)) rowState.update(el.row);
        else rowState.clear();
        return;
      }
      // A multiset's input is keyed by the whole row (tableKey(null)), so the runtime has already
      // set the current key to rowKey(el.row): building that text again would double the cost
      // per record of every log and collect sink.
      const c = copies.value();
      if (isAddition(el.kind)) copies.update({ row: el.row, n: (c?.n ?? 0) + 1 });
      else if (!c) ctx.deadLetter(`${el.kind} for a row the table does not hold`, el.row);
      else if (c.n <= 1) copies.clear();
      else copies.update({ row: c.row, n: c.n - 1 });
    },
    /** Pull query: the row for one primary key. */
    lookup(key: Key): Row | undefined {
      const saved = ctx.state.currentKey();
      ctx.state.setCurrentKey(key);
      const r = materialize ? materialized.value()?.at(-1) : byKey ? rowState.value() : copies.value()?.row;
      ctx.state.setCurrentKey(saved);
      return r;
    },
    rows(): Row[] {
      const saved = ctx.state.currentKey();
      const out: Row[] = [];
      if (materialize) {
        for (const k of ctx.state.keys('materialized')) {
          ctx.state.setCurrentKey(k);
          const r = materialized.value()?.at(-1);
          if (r) out.push(r);
        }
      } else if (byKey) {
        for (const k of ctx.state.keys('row')) {
          ctx.state.setCurrentKey(k);
          const r = rowState.value();
          if (r) out.push(r);
        }
      } else {
        for (const k of ctx.state.keys('copies')) {
          ctx.state.setCurrentKey(k);
          const c = copies.value();
          if (c) for (let i = 0; i < c.n; i++) out.push(c.row);
        }
      }
      ctx.state.setCurrentKey(saved);
      return sortTableRows(out, primaryKey);
    },
  };
}

/** A table's rows in its order: by primary key, or by every field for a multiset. */
export function sortTableRows(rows: Row[], primaryKey: readonly string[] | null): Row[] {
  const order = primaryKey && primaryKey.length ? primaryKey : null;
  return rows.sort((a, b) => compareRows(a, b, order ?? Object.keys(a)));
}

/** The last of `rows` whose JSON text is the same as `row`'s (the row a retraction takes back). */
function lastIndexOfRow(rows: readonly Row[], row: Row): number {
  let want: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const same = sameFlatRow(rows[i], row);
    if (same === true) return i;
    if (same === null && JSON.stringify(rows[i]) === (want ??= JSON.stringify(row))) return i;
  }
  return -1;
}

/**
 * Whether two rows have the same JSON text, without writing it, when both are flat rows of
 * strings, booleans, nulls and finite numbers (then the text is the same exactly when the keys
 * come in the same order with === values); null when that cannot tell (nested values, NaN,
 * undefined, which JSON writes differently from how === compares them).
 */
function sameFlatRow(a: Row, b: Row): boolean | null {
  if (a === b) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let differs = ka.length !== kb.length;
  for (let i = 0; i < ka.length; i++) {
    const x = a[ka[i]];
    if (!isFlat(x)) return null;
    if (!differs && (ka[i] !== kb[i] || x !== b[kb[i]])) differs = true;
  }
  for (let i = 0; i < kb.length; i++) if (!isFlat(b[kb[i]])) return null;
  return !differs;
}

function isFlat(v: unknown): boolean {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

function sameFields(a: readonly string[], b: readonly string[] | null): boolean {
  return b !== null && a.length === b.length && a.every((f) => b.includes(f));
}

/** Orders rows by the given fields: NULL first, numbers numerically, everything else as text. */
export function compareRows(a: Row, b: Row, fields: readonly string[]): number {
  for (const f of fields) {
    const c = compareValues(a[f], b[f]);
    if (c !== 0) return c;
  }
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

export function compareValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return -1;
  if (y === null || y === undefined) return 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = typeof x === 'string' ? x : JSON.stringify(x);
  const sy = typeof y === 'string' ? y : JSON.stringify(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}
