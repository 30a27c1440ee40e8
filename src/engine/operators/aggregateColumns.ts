import type { Arrangement, OperatorContext } from '../operator.ts';
import type { Element, Key, Row } from '../../core/types.ts';
import type { KeySelector } from '../../core/keys.ts';
import { isAddition } from '../../core/types.ts';
import type { AggregateSet, NumericSlot } from '../aggregates.ts';
import type { AggregateParams } from '../../pipeline/kinds/aggregate.ts';
import type { ColumnsDescriptor, ColumnsState } from '../../state/descriptors.ts';
import type { ArrayGroup, FieldGroup } from './aggregateGroup.ts';

/** Where a claim pass leaves what it read, so the reads are not optimised away. */
const warmed = { sum: 0 };

/** As many numbers as the field layout holds, so both write the same snapshot value. */
const FIELDS = 4;

/**
 * COUNT/SUM/AVG groups in the backend's columns: per group a slot of numbers [n, a0, a1, ...]
 * and its group-by values (the ref, which is the key itself for one plain field). No object is
 * kept per group; the result rows are built only when a change is emitted. Snapshots hold the
 * field layout's value ({ n, out, a0..a3 }), so checkpoints do not change and old ones restore.
 * Null when a call is not numeric or the backend keeps only per-key cells.
 */
export function columnsUpdater(ctx: OperatorContext, params: AggregateParams, calls: AggregateSet): ColumnsAggregate | null {
  const slots = calls.numericSlots(FIELDS);
  if (!slots || !ctx.state.columns) return null;
  const shape = groupShape(params.groupBy, slots);
  const state = ctx.state.columns(shape.descriptor);
  return state ? columnsAggregate(ctx, shape, state) : null;
}

/** The columns layout's update, its groups read as a table of result rows, and the switch that stops its changelog. */
export interface ColumnsAggregate {
  update(el: Element): void;
  /**
   * For an append-only input only (every record adds, so no group empties within the batch):
   * claims each record's group slot in order and reads its numbers, so that a batch's cache misses
   * overlap; `update` then takes the slots claimed here in the same order (see Claimed). A new group's slot waits empty (n = 0) until `update` fills it;
   * a record `notNumeric` refuses claims nothing, as `update` never sees it.
   */
  claimBatch(els: readonly Element[], keyOf: KeySelector, notNumeric: ((row: Row) => string | null) | null): void;
  /** Mini-batch: the current key's records of one batch, applied in order, then one change (see groupFolder). */
  fold(els: readonly Element[], notNumeric: ((row: Row) => string | null) | null): void;
  arrangement: Arrangement;
  dropChangelog(): void;
}

interface GroupShape {
  descriptor: ColumnsDescriptor;
  width: number;
  slots: readonly NumericSlot[];
  /** The group-by values of a row, as the ref stores them. */
  refOf(row: Row): unknown;
  sameRef(ref: unknown, row: Row): boolean;
  /** The ref is exactly the row's group-by values (Object.is: 0 and -0 differ), so whatever the result, the group keeps it. */
  identicalRef(ref: unknown, row: Row): boolean;
  /** A result row: the group-by values, then each call's value. */
  build(ref: unknown, values: readonly (number | null)[]): Row;
  /** Each call's current value, from the slot's numbers at `b`. */
  read(nums: Float64Array, b: number, into: (number | null)[]): void;
}

function groupShape(groupBy: readonly string[], slots: readonly NumericSlot[]): GroupShape {
  const accWidth = slots.reduce((w, s) => Math.max(w, s.at + (s.fn === 'count' ? 1 : 2)), 0);
  const width = 1 + accWidth;
  const one = groupBy.length === 1 ? groupBy[0] : null;
  const refOf = (row: Row): unknown => (one !== null ? (row[one] ?? null) : groupBy.length === 0 ? null : groupBy.map((f) => row[f] ?? null));
  const sameRef = (ref: unknown, row: Row): boolean => {
    if (one !== null) return ref === (row[one] ?? null);
    for (let i = 0; i < groupBy.length; i++) if ((ref as unknown[])[i] !== (row[groupBy[i]] ?? null)) return false;
    return true;
  };
  const identicalRef = (ref: unknown, row: Row): boolean => {
    if (one !== null) return Object.is(ref, row[one] ?? null);
    for (let i = 0; i < groupBy.length; i++) if (!Object.is((ref as unknown[])[i], row[groupBy[i]] ?? null)) return false;
    return true;
  };
  const build = (ref: unknown, values: readonly (number | null)[]): Row => {
    const r: Row = {};
    if (one !== null) r[one] = ref;
    else for (let i = 0; i < groupBy.length; i++) r[groupBy[i]] = (ref as unknown[])[i];
    for (let i = 0; i < slots.length; i++) r[slots[i].as] = values[i];
    return r;
  };
  const read = (nums: Float64Array, b: number, into: (number | null)[]): void => {
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      const x = nums[b + 1 + s.at];
      if (s.fn === 'count') into[i] = x;
      else {
        const n = nums[b + 2 + s.at];
        into[i] = n === 0 ? null : s.fn === 'sum' ? x : x / n;
      }
    }
  };
  const scratch: (number | null)[] = new Array(slots.length);
  const descriptor: ColumnsDescriptor = {
    name: 'group',
    kind: 'columns',
    width,
    encode(nums, b, ref): FieldGroup {
      const n = nums[b];
      const a = (i: number) => (i < accWidth ? nums[b + 1 + i] : 0);
      read(nums, b, scratch);
      return { n, out: n === 0 ? null : build(ref, scratch), a0: a(0), a1: a(1), a2: a(2), a3: a(3) };
    },
    decode(value, nums, b) {
      const g = value as Partial<FieldGroup & ArrayGroup> | null;
      if (g === null || typeof g !== 'object' || typeof g.n !== 'number') throw new Error('group state was written by an aggregate with other calls');
      const accs = g.accs;
      const fields = [g.a0, g.a1, g.a2, g.a3];
      nums[b] = g.n;
      for (let i = 0; i < accWidth; i++) {
        const x = accs ? accs[i] : fields[i];
        nums[b + 1 + i] = typeof x === 'number' ? x : 0;
      }
      return g.out ? refOf(g.out) : null;
    },
  };
  return { descriptor, width, slots, refOf, sameRef, identicalRef, build, read };
}

function columnsAggregate(ctx: OperatorContext, shape: GroupShape, state: ColumnsState): ColumnsAggregate {
  const { width, slots, build, read } = shape;
  const values: (number | null)[] = new Array(slots.length);
  const rowAt = (slot: number, ref: unknown): Row => {
    read(state.numbers(), slot * width, values);
    return build(ref, values);
  };
  // Every slot held has n > 0 (a group that empties is dropped), and its row is the one last emitted.
  const arrangement: Arrangement = {
    size: () => state.size(),
    rows() {
      const out: Row[] = [];
      state.each((slot, ref) => out.push(rowAt(slot, ref)));
      return out;
    },
    lookup(key) {
      const slot = state.slotOf(key);
      return slot < 0 ? undefined : rowAt(slot, state.refAt(slot, key));
    },
  };
  const flags = { emit: true };
  const claimed: Claimed = { slots: new Int32Array(0), keys: [], length: 0, next: 0, moves: 0 };
  const claimBatch = (els: readonly Element[], keyOf: KeySelector, notNumeric: ((row: Row) => string | null) | null): void => {
    if (claimed.slots.length < els.length) claimed.slots = new Int32Array(els.length + (els.length >> 1));
    const slots = claimed.slots;
    let n = 0;
    let touched = 0;
    for (let i = 0; i < els.length; i++) {
      const row = els[i].row;
      if (notNumeric !== null && notNumeric(row) !== null) continue;
      const key = keyOf(row);
      const slot = state.claimKey(key);
      claimed.keys[n] = key;
      slots[n++] = slot;
      touched += state.numbers()[slot * width];
    }
    claimed.keys.length = n;
    claimed.length = n;
    claimed.next = 0;
    claimed.moves = state.moves();
    warmed.sum = touched;
  };
  const { update, fold } = updater(ctx, shape, state, flags, claimed);
  return { update, fold, claimBatch, arrangement, dropChangelog: () => void (flags.emit = false) };
}

/**
 * The slots a claim pass took and their keys, in the order the task's loop then hands the records
 * to `update`, which takes each slot from here instead of looking its key up a second time. A slot
 * is taken only when its key is the current one and no key has left its slot since the pass: a
 * record the loop never hands over (one that failed before `update`) only costs the batch's later
 * records their shortcut. Comparing keys reads nothing the claim pass did not just write, where
 * asking the index which key a slot holds would miss the cache once more per record.
 */
interface Claimed {
  slots: Int32Array;
  keys: Key[];
  length: number;
  next: number;
  moves: number;
}

/**
 * `flags.emit` false: the state changes exactly as it would, but no result row and no change is
 * built (a chained view reads the columns instead).
 */
function updater(ctx: OperatorContext, shape: GroupShape, state: ColumnsState, flags: { emit: boolean }, claimed: Claimed): Pick<ColumnsAggregate, 'update' | 'fold'> {
  const { width, slots, refOf, sameRef, build, read } = shape;
  const before: (number | null)[] = new Array(slots.length);
  const after: (number | null)[] = new Array(slots.length);
  // The same additions in the same order as AggregateSet.add/retract, so results are bit-identical.
  const apply = (nums: Float64Array, b: number, row: Row, sign: 1 | -1): void => {
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      const v = s.read(row);
      if (s.fn === 'count') {
        if (v !== null) nums[b + 1 + s.at] += sign;
      } else if (typeof v === 'number' && !Number.isNaN(v)) {
        nums[b + 1 + s.at] += sign * v;
        nums[b + 2 + s.at] += sign;
      }
    }
  };
  const update = (el: Element): void => {
    const add = isAddition(el.kind);
    let slot = -1;
    if (!add) slot = state.find();
    else {
      if (claimed.next < claimed.length) {
        const i = claimed.next++;
        if (claimed.moves === state.moves() && state.isCurrent(claimed.keys[i])) slot = claimed.slots[i];
      }
      if (slot < 0) slot = state.claim();
    }
    if (slot < 0) return ctx.deadLetter('retraction for a group that holds no rows', el.row);
    const nums = state.numbers();
    const b = slot * width;
    const n0 = nums[b];
    if (!flags.emit && n0 > 0 && (add || n0 > 1)) {
      // Nothing reads the change: only the numbers and the group-by values it keeps matter.
      const kept = state.ref(slot);
      if (shape.identicalRef(kept, el.row)) {
        nums[b] = add ? n0 + 1 : n0 - 1;
        apply(nums, b, el.row, add ? 1 : -1);
        state.written(slot, kept);
        return;
      }
    }
    let ref: unknown = undefined;
    if (n0 > 0) {
      read(nums, b, before);
      ref = state.ref(slot);
    }
    nums[b] = add ? n0 + 1 : n0 - 1;
    apply(nums, b, el.row, add ? 1 : -1);
    if (nums[b] === 0) {
      state.clear();
      return settle(-1, n0 > 0, ref, el.row, el.ts);
    }
    settle(slot, n0 > 0, ref, el.row, el.ts);
  };
  /**
   * The change of one group: `slot` -1 when it emptied; `had` when it held rows before, whose
   * values `before` holds and whose group-by values are `ref`; `row` gives the new group-by values.
   */
  const settle = (slot: number, had: boolean, ref: unknown, row: Row, ts: number | null): void => {
    if (slot < 0) {
      if (had && flags.emit) ctx.emit({ kind: '-D', row: build(ref, before), ts });
      return;
    }
    read(state.numbers(), slot * width, after);
    if (!had) {
      const fresh = refOf(row);
      state.written(slot, fresh);
      if (flags.emit) ctx.emit({ kind: '+I', row: build(fresh, after), ts });
      return;
    }
    let same = sameRef(ref, row);
    for (let i = 0; same && i < after.length; i++) same = before[i] === after[i];
    // An unchanged result emits nothing and keeps the group-by values it was last emitted with.
    const next = same ? ref : refOf(row);
    state.written(slot, next);
    if (same || !flags.emit) return;
    ctx.emit({ kind: '-U', row: build(ref, before), ts });
    ctx.emit({ kind: '+U', row: build(next, after), ts });
  };
  const fold = (els: readonly Element[], notNumeric: ((row: Row) => string | null) | null): void => {
    let slot = state.find();
    // A slot claimed but never filled (n = 0) holds no group yet.
    const had = slot >= 0 && state.numbers()[slot * width] > 0;
    let ref: unknown = undefined;
    if (had) {
      read(state.numbers(), slot * width, before);
      ref = state.ref(slot);
    }
    let last: Element | null = null;
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const bad = notNumeric === null ? null : notNumeric(el.row);
      const add = isAddition(el.kind);
      const why = bad ?? (!add && (slot < 0 || state.numbers()[slot * width] === 0) ? 'retraction for a group that holds no rows' : null);
      if (why !== null) {
        ctx.deadLetter(why, el.row, el);
        continue;
      }
      if (slot < 0) slot = state.claim();
      // claim() may grow the table: read the array after it.
      const nums = state.numbers();
      const b = slot * width;
      nums[b] += add ? 1 : -1;
      apply(nums, b, el.row, add ? 1 : -1);
      // An emptied group starts afresh, as it would record by record.
      if (nums[b] === 0) {
        state.clear();
        slot = -1;
      }
      last = el;
    }
    if (last !== null) settle(slot, had, ref, last.row, last.ts);
  };
  return { update, fold };
}
