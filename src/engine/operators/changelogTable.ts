import type { OperatorContext } from '../operator.ts';
import type { Element, Key, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { keySelector } from '../../core/keys.ts';
import type { KeyFields } from '../../core/keys.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { valueState, withImmutableValues } from '../../state/descriptors.ts';
import { lastIndexOfRow, multisetKey, multisetTable } from './multisetTable.ts';

/**
 * What a table is keyed by: its primary key, or else (no primary key: a multiset) the whole row
 * over an updating input and nothing over an append-only one (see multisetKey). A sink's input
 * is partitioned by exactly this, so each key's changes meet its state in one subtask and a
 * restore puts that state back where the key's later changes will arrive.
 */
export function tableKey(primaryKey: readonly string[] | null, inputs?: Record<string, StreamInfo>): KeyFields | null {
  return primaryKey && primaryKey.length ? primaryKey : multisetKey(inputs);
}

/**
 * A table that applies a changelog: by primary key when one is given (upsert),
 * otherwise as a multiset of whole rows (see multisetTable). It lives in state, so checkpoints cover it.
 */
export function changelogTable(ctx: OperatorContext, primaryKey: string[] | null) {
  if (!primaryKey || primaryKey.length === 0) {
    const multiset = multisetTable(ctx);
    return { apply: multiset.apply, lookup: multiset.lookup, rows: () => sortTableRows(multiset.rows(), null) };
  }
  const byKey = keySelector(primaryKey);
  // Flink's upsert sink: when the table's key is the unique key of its input, every -U is
  // followed by the +U of the same key, which overwrites the row. Applying the -U would delete
  // the row only to insert it again (two map operations and a new cell per update).
  const upsert = sameFields(primaryKey, ctx.inputs.in?.uniqueKey ?? null);
  // …unless something between dropped a +U and kept its -U (a HAVING that the new value fails).
  const unpaired = ctx.inputs.in?.unpairedUpdates === true;
  // Rows are never changed in place and each change writes a new array, so reads share them with checkpoints.
  const rowState = ctx.state.value(withImmutableValues(valueState<Row>('row')));
  // Flink's SinkUpsertMaterializer: when the table's key is not its input's unique key, the
  // changes of one table key may belong to different input rows (a left join's padded row and
  // the joined row replacing it), and a retraction must remove only its own row. Every live row
  // of the key is kept, in arrival order; the table shows the latest one.
  const materialized = ctx.state.value(withImmutableValues(valueState<Row[]>('materialized')));
  const materialize = !upsert;
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
      if (el.kind === '-U' && !unpaired) return;
      ctx.state.setCurrentKey(byKey(el.row));
      if (isAddition(el.kind)) rowState.update(el.row);
      else rowState.clear();
    },
    /** Pull query: the row for one primary key. */
    lookup(key: Key): Row | undefined {
      const saved = ctx.state.currentKey();
      ctx.state.setCurrentKey(key);
      const r = materialize ? materialized.value()?.at(-1) : rowState.value();
      ctx.state.setCurrentKey(saved);
      return r;
    },
    rows(): Row[] {
      const saved = ctx.state.currentKey();
      const out: Row[] = [];
      const state = materialize ? 'materialized' : 'row';
      for (const k of ctx.state.keys(state)) {
        ctx.state.setCurrentKey(k);
        const r = materialize ? materialized.value()?.at(-1) : rowState.value();
        if (r) out.push(r);
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
