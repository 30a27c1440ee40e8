import type { OperatorDefinition } from '../operator.ts';
import type { Key, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { valueState } from '../../state/descriptors.ts';
import { compareValues } from './changelogTable.ts';
import { windowRank } from './window/windowRank.ts';
import { topRanks } from './topRanks.ts';
import { DEFAULT_RANK_FIELD } from '../../pipeline/kinds/topN.ts';
import type { TopNOrder, TopNParams } from '../../pipeline/kinds/topN.ts';

type Comparator = (a: Row, b: Row) => number;

/** NULL is the smallest value, so it comes first ascending and last descending (Flink's default). */
export function rowComparator(orderBy: readonly TopNOrder[]): Comparator {
  return (a, b) => {
    for (const o of orderBy) {
      const c = compareValues(a[o.field], b[o.field]);
      if (c !== 0) return o.direction === 'desc' ? -c : c;
    }
    return 0;
  };
}

/**
 * Structural equality. Rows restored from a snapshot are copies, so identity is not enough
 * to match a retraction with the row it retracts, nor to tell a changed rank from an unchanged one.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameValue(x, bb[i]));
  }
  const ra = a as Row;
  const rb = b as Row;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => k in rb && sameValue(ra[k], rb[k]));
}

/** First index whose row sorts after `row`: inserting there keeps equal rows in arrival order. */
function upperBound(list: readonly Row[], row: Row, cmp: Comparator): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(list[mid], row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(list: readonly Row[], row: Row, cmp: Comparator): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(list[mid], row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const topN: OperatorDefinition<TopNParams> = {
  kind: 'topN',
  keyFields: (p) => p.partitionBy,
  create({ ctx, params }) {
    const n = params.n;
    const rankField = params.rankField ?? DEFAULT_RANK_FIELD;
    const fn = params.rankFunction ?? 'rowNumber';
    const cmp = rowComparator(params.orderBy);
    if (params.window) return windowRank(ctx, params.window, n, rankField, cmp, fn);
    // An append-only input can never promote a row from below the top n, so only those are kept.
    const appendOnly = ctx.inputs.in?.changelog === 'append';
    // The partition's rows in rank order; on an updating input it holds every row, not only the top n.
    const sorted = ctx.state.value(valueState<Row[]>('sorted'));
    const ranked = (row: Row, rank: number): Row => ({ ...row, [rankField]: rank });

    /** Adds the row; false when an append-only partition's top n does not change. */
    function add(list: Row[], row: Row): boolean {
      const pos = upperBound(list, row, cmp);
      list.splice(pos, 0, row);
      if (!appendOnly) return true;
      // Ties may keep more than n rows in the top n (RANK, DENSE_RANK): trim by rank, not by count.
      const kept = fn === 'rowNumber' ? Math.min(n, list.length) : topRanks(list, n, fn, cmp).length;
      list.length = kept;
      return pos < kept;
    }

    function remove(list: Row[], row: Row): boolean {
      // An equal row sorts equal, so only the run of ties can hold it.
      for (let i = lowerBound(list, row, cmp); i < list.length && cmp(list[i], row) === 0; i++) {
        if (sameValue(list[i], row)) {
          list.splice(i, 1);
          return true;
        }
      }
      return false;
    }

    return {
      processElement(el) {
        const list = sorted.value() ?? [];
        const beforeRanks = topRanks(list, n, fn, cmp);
        const before = list.slice(0, beforeRanks.length);
        if (isAddition(el.kind)) {
          if (!add(list, el.row)) return;
        } else if (appendOnly) {
          return ctx.deadLetter(`${el.kind} on an input declared append-only; Top N keeps only the first ${n} rows and cannot retract`, el.row);
        } else if (!remove(list, el.row)) {
          return ctx.deadLetter(`${el.kind} for a row the partition does not hold`, el.row);
        }
        if (list.length) sorted.update(list);
        else sorted.clear();
        // Position by position: a position whose row or rank changed retracts the old and adds the new.
        const afterRanks = topRanks(list, n, fn, cmp);
        for (let i = 0; i < Math.max(before.length, afterRanks.length); i++) {
          const old = i < before.length ? before[i] : undefined;
          const now = i < afterRanks.length ? list[i] : undefined;
          if (old === undefined) ctx.emit({ kind: '+I', row: ranked(now!, afterRanks[i]), ts: el.ts });
          else if (now === undefined) ctx.emit({ kind: '-D', row: ranked(old, beforeRanks[i]), ts: el.ts });
          else if (beforeRanks[i] !== afterRanks[i] || !sameValue(old, now)) {
            ctx.emit({ kind: '-U', row: ranked(old, beforeRanks[i]), ts: el.ts });
            ctx.emit({ kind: '+U', row: ranked(now, afterRanks[i]), ts: el.ts });
          }
        }
      },
      inspect() {
        const saved = ctx.state.currentKey();
        const partitions: { partition: Key; ranking: Row[]; rowsHeld: number }[] = [];
        for (const k of ctx.state.keys('sorted')) {
          ctx.state.setCurrentKey(k);
          const list = sorted.value() ?? [];
          const ranks = topRanks(list, n, fn, cmp);
          partitions.push({ partition: k, ranking: ranks.map((r, i) => ranked(list[i], r)), rowsHeld: list.length });
        }
        ctx.state.setCurrentKey(saved);
        return { n, rankFunction: fn, rankField, appendOnly, partitions };
      },
    };
  },
};
