import type { OperatorDefinition } from '../operator.ts';
import type { Element, Row, RowKind } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { mapState } from '../../state/descriptors.ts';
import type { MapState } from '../../state/descriptors.ts';
import type { SemiJoinParams } from '../../pipeline/kinds/semiJoin.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { hasNullKey, notInMatches, rowId, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';
import { compileExpr } from '../../expr/index.ts';

/** One distinct left row under one key: its copies and how many right rows (with copies) match it. */
interface LeftRow {
  row: Row;
  ts: number | null;
  count: number;
  matches: number;
}

/** One distinct right row under one key and its copies. */
interface RightRow {
  row: Row;
  count: number;
}

/**
 * Flink's StreamingSemiAntiJoinOperator: the left rows are the output; the right side only decides,
 * per left row, whether it has a match. Both sides are kept per key, so retractions on either side
 * move a left row in or out as its match count crosses 0 ↔ 1.
 */
export const semiJoin: OperatorDefinition<SemiJoinParams> = {
  kind: 'semiJoin',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const lefts: MapState<string, LeftRow> = ctx.state.map(mapState<string, LeftRow>('semiJoin.left'));
    const rights: MapState<string, RightRow> = ctx.state.map(mapState<string, RightRow>('semiJoin.right'));
    const semi = params.type === 'semi';
    const joiner = new RowJoiner(ctx.inputs.left, ctx.inputs.right, params.leftKey);
    const residual = params.nonEquiCondition !== undefined ? compileExpr(params.nonEquiCondition, ctx) : null;
    const pair = params.nullAware;
    // Under IS NOT DISTINCT FROM a NULL key is a key like any other: the runtime keys it as null.
    const neverMatches = (row: Row, fields: readonly string[]): boolean => !params.nullSafeKeys && hasNullKey(row, fields);

    /** Whether right row r matches left row l under the same key (the key equality itself is the runtime's). */
    const matches = (l: Row, r: Row): boolean => {
      if (!notInMatches(pair, l, r)) return false;
      return !residual || residual.evaluate(joiner.join(l, r)) === true;
    };
    const outputs = (matchCount: number): boolean => (semi ? matchCount > 0 : matchCount === 0);
    const emit = (kind: RowKind, l: LeftRow, copies: number) => {
      for (let i = 0; i < copies; i++) ctx.emit({ kind, row: l.row, ts: l.ts });
    };

    function onLeft(el: Element): void {
      // A NULL key compares unknown with every right row: it never matches.
      const nullKey = neverMatches(el.row, params.leftKey);
      let total = 0;
      if (!nullKey) for (const [, r] of rights.entries()) if (matches(el.row, r.row)) total += r.count;
      const id = rowId(el.row);
      const held = lefts.get(id);
      if (isAddition(el.kind)) {
        const l = held ?? { row: el.row, ts: el.ts, count: 0, matches: total };
        l.count++;
        l.ts = el.ts ?? l.ts;
        l.matches = total;
        lefts.put(id, l);
        if (outputs(total)) ctx.emit({ kind: el.kind, row: el.row, ts: el.ts });
        return;
      }
      if (!held) return ctx.deadLetter(`retraction (${el.kind}) of a left row the semi/anti join does not hold`, el.row);
      if (outputs(total)) ctx.emit({ kind: el.kind, row: held.row, ts: el.ts ?? held.ts });
      if (--held.count === 0) lefts.remove(id);
      else lefts.put(id, held);
    }

    function onRight(el: Element): void {
      // A right row with a NULL key matches nothing, so it changes nothing.
      if (neverMatches(el.row, params.rightKey)) return;
      const id = rowId(el.row);
      const held = rights.get(id);
      const adding = isAddition(el.kind);
      if (!adding && !held) return ctx.deadLetter(`retraction (${el.kind}) of a right row the semi/anti join does not hold`, el.row);
      for (const [lid, l] of lefts.entries()) {
        if (neverMatches(l.row, params.leftKey) || !matches(l.row, el.row)) continue;
        const before = outputs(l.matches);
        l.matches = Math.max(0, l.matches + (adding ? 1 : -1));
        const after = outputs(l.matches);
        if (before !== after) emit(after ? '+I' : '-D', l, l.count);
        lefts.put(lid, l);
      }
      if (adding) {
        const r = held ?? { row: el.row, count: 0 };
        r.count++;
        rights.put(id, r);
      } else if (--held!.count === 0) rights.remove(id);
      else rights.put(id, held!);
      if (adding) ctx.count('joinMatches', 1);
    }

    return {
      processElement(el, port) {
        if (port === 'left') return onLeft(el);
        if (port === 'right') return onRight(el);
        ctx.deadLetter(`semi/anti join has no input port "${port}"`, el.row);
      },
    };
  },
};
