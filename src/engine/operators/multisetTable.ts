import type { OperatorContext } from '../operator.ts';
import { appendOnlyInput } from '../operator.ts';
import type { Element, Key, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { rowKey, WHOLE_ROW } from '../../core/keys.ts';
import type { KeyFields } from '../../core/keys.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { valueState } from '../../state/descriptors.ts';

interface Copies {
  row: Row;
  n: number;
}

/**
 * What a table without a primary key is keyed by. Over an updating input it is a multiset keyed
 * by the whole row, so that a row's retraction meets its copies in one subtask and a restore puts
 * them back where that retraction will arrive. Over an input the plan says is append-only nothing
 * is ever taken back: the table is not keyed at all (null), records reach it as they come (forward,
 * or round-robin when the parallelism changes), and no key is built per record.
 */
export function multisetKey(inputs: Record<string, StreamInfo> | undefined): KeyFields | null {
  return appendOnlyInput(inputs) ? null : WHOLE_ROW;
}

/**
 * A table without a primary key: a multiset of whole rows (+I/+U add a copy, -U/-D remove one).
 *
 * Over an append-only input (see multisetKey) its rows are an append log in operator state:
 * in arrival order, no per-row key map, checkpointed as chunks of which only the new ones are
 * copied (see AppendLog). A rescale hands whole chunks round-robin to the new subtasks, which is
 * exact for a table that is never keyed. Over an updating input each distinct row is a keyed cell
 * holding its copies, as before.
 *
 * Both hold rows together: an unkeyed table restored from a checkpoint written while it was keyed
 * (before the log existed) keeps those cells, and rows() and retractions see them. A retraction
 * on an append-only input cannot come from the plan's operators; one that comes anyway is still
 * applied exactly (a scan of the log from its end, then the cells).
 */
export function multisetTable(ctx: OperatorContext) {
  const log = multisetKey(ctx.inputs) === null ? ctx.operatorState.log<Row>('rows') : null;
  const copies = ctx.state.value(valueState<Copies>('copies'));
  /** Keyed input: the runtime has already set the current key to rowKey(el.row) (not built twice). */
  const applyKeyed = (el: Element): void => {
    const c = copies.value();
    if (isAddition(el.kind)) copies.update({ row: el.row, n: (c?.n ?? 0) + 1 });
    else if (!c) ctx.deadLetter(`${el.kind} for a row the table does not hold`, el.row);
    else if (c.n <= 1) copies.clear();
    else copies.update({ row: c.row, n: c.n - 1 });
  };
  /**
   * The log's last copy, else a cell restored from the keyed layout (the runtime set no key
   * context: the cell of the row's own key). Rows only ever become cells through the keyed layout,
   * whose routing held each row in one subtask, so a restore by key group never merges two cells.
   */
  const retractUnkeyed = (el: Element): void => {
    let want: string | undefined;
    if (log!.removeLast((r) => sameRow(r, el.row, () => (want ??= JSON.stringify(el.row))))) return;
    const saved = ctx.state.currentKey();
    ctx.state.setCurrentKey(rowKey(el.row));
    applyKeyed(el);
    ctx.state.setCurrentKey(saved);
  };
  return {
    apply(el: Element): void {
      if (!log) applyKeyed(el);
      else if (isAddition(el.kind)) log.push(el.row);
      else retractUnkeyed(el);
    },
    /** Pull query: a row whose key (rowKey) is `key`. */
    lookup(key: Key): Row | undefined {
      const saved = ctx.state.currentKey();
      ctx.state.setCurrentKey(key);
      let r = copies.value()?.row;
      ctx.state.setCurrentKey(saved);
      if (!r && log) log.forEach((x) => (r ??= rowKey(x) === key ? x : undefined));
      return r;
    },
    /** Every copy of every row (unsorted). */
    rows(): Row[] {
      const saved = ctx.state.currentKey();
      const out: Row[] = [];
      for (const k of ctx.state.keys('copies')) {
        ctx.state.setCurrentKey(k);
        const c = copies.value();
        if (c) for (let i = 0; i < c.n; i++) out.push(c.row);
      }
      ctx.state.setCurrentKey(saved);
      log?.forEach((r) => out.push(r));
      return out;
    },
  };
}

/** Whether two rows have the same JSON text; `wantText` gives b's (built once, when needed). */
function sameRow(a: Row, b: Row, wantText: () => string): boolean {
  const same = sameFlatRow(a, b);
  return same ?? JSON.stringify(a) === wantText();
}

/** The last of `rows` whose JSON text is the same as `row`'s (the row a retraction takes back). */
export function lastIndexOfRow(rows: readonly Row[], row: Row): number {
  let want: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) if (sameRow(rows[i], row, () => (want ??= JSON.stringify(row)))) return i;
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
