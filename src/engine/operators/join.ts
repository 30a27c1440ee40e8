import type { OperatorDefinition } from '../operator.ts';
import type { Element, Row, RowKind } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import type { JoinParams } from '../../pipeline/kinds/join.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { hasNullKey, JOIN_INSPECT_LIMIT, maxTs, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';
import type { MapKey } from '../../state/descriptors.ts';
import { joinSideView } from './joinViews.ts';
import type { Buffered, JoinSideView } from './joinViews.ts';
import { compileExpr } from '../../expr/index.ts';

type Side = 'left' | 'right';

export interface JoinBufferView {
  side: Side;
  key: unknown;
  row: Row;
  ts: number | null;
  count: number;
  matches: number;
}

const other = (s: Side): Side => (s === 'left' ? 'right' : 'left');

/**
 * Flink's StreamingJoinOperator: both sides buffered per join key; outer sides track how many
 * partners satisfy the whole ON clause (equi key and residual), which decides their padding.
 */
export const join: OperatorDefinition<JoinParams> = {
  kind: 'join',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const ttl = params.ttlMs ? { ttlMs: params.ttlMs, update: 'onCreateAndWrite' as const } : undefined;
    const buffers: Record<Side, JoinSideView> = {
      left: joinSideView(ctx.state, 'left', params.leftKey, ctx.inputs.left?.uniqueKey, ttl),
      right: joinSideView(ctx.state, 'right', params.rightKey, ctx.inputs.right?.uniqueKey, ttl),
    };
    const outer: Record<Side, boolean> = { left: params.type === 'left' || params.type === 'full', right: params.type === 'right' || params.type === 'full' };
    const keys: Record<Side, string[]> = { left: params.leftKey, right: params.rightKey };
    const joiner = new RowJoiner(ctx.inputs.left, ctx.inputs.right, params.leftKey);
    // The residual part of the ON clause, tested on the joined row (NULL is not a match, as in SQL).
    const residual = params.nonEquiCondition !== undefined ? compileExpr(params.nonEquiCondition, ctx) : null;
    const satisfies = (side: Side, row: Row, o: Row): boolean => !residual || residual.evaluate(side === 'left' ? joiner.join(row, o) : joiner.join(o, row)) === true;

    const emitJoined = (kind: RowKind, side: Side, row: Row, ts: number | null, o: Buffered) => {
      const joined = side === 'left' ? joiner.join(row, o.row) : joiner.join(o.row, row);
      for (let i = 0; i < o.count; i++) ctx.emit({ kind, row: joined, ts: maxTs(ts, o.ts) });
    };
    const emitPadded = (kind: RowKind, side: Side, row: Row, ts: number | null, copies = 1) => {
      const padded = side === 'left' ? joiner.padRight(row) : joiner.padLeft(row);
      for (let i = 0; i < copies; i++) ctx.emit({ kind, row: padded, ts });
    };

    function accumulate(side: Side, el: Element, id: MapKey, matches: [MapKey, Buffered][], total: number): void {
      const theirs = buffers[other(side)];
      if (total === 0) {
        if (outer[side]) emitPadded('+I', side, el.row, el.ts);
      } else {
        if (outer[other(side)]) {
          for (const [oid, o] of matches) {
            if (o.matches === 0) emitPadded('-D', other(side), o.row, o.ts, o.count);
            o.matches++;
            theirs.put(oid, o);
          }
        }
        for (const [, o] of matches) emitJoined('+I', side, el.row, el.ts, o);
        ctx.count('joinMatches', total);
      }
      const mine = buffers[side];
      const b = mine.get(id);
      if (b) {
        b.count++;
        b.ts = maxTs(b.ts, el.ts);
        b.matches = total;
        mine.put(id, b);
      } else mine.put(id, { row: el.row, ts: el.ts, count: 1, matches: total });
    }

    function retract(side: Side, el: Element, id: MapKey, matches: [MapKey, Buffered][], total: number): void {
      const mine = buffers[side];
      const b = mine.get(id);
      if (!b) return ctx.deadLetter(`retraction (${el.kind}) of a ${side} row the join does not hold (never inserted, or expired by ttlMs)`, el.row);
      if (total === 0) {
        if (outer[side]) emitPadded('-D', side, b.row, el.ts);
      } else {
        for (const [, o] of matches) emitJoined('-D', side, b.row, el.ts, o);
        if (outer[other(side)]) {
          const theirs = buffers[other(side)];
          for (const [oid, o] of matches) {
            if (o.matches === 1) emitPadded('+I', other(side), o.row, o.ts, o.count);
            o.matches = Math.max(0, o.matches - 1);
            theirs.put(oid, o);
          }
        }
      }
      if (--b.count === 0) mine.remove(id);
      else mine.put(id, b);
    }

    return {
      processElement(el, port) {
        if (port !== 'left' && port !== 'right') return ctx.deadLetter(`join has no input port "${port}"`, el.row);
        const side: Side = port;
        // Every row under this key with non-NULL key fields is an equi-match; the residual then decides.
        // Outer sides count only satisfying partners, as Flink's OuterJoinRecordStateView counts associations.
        const candidates = hasNullKey(el.row, keys[side]) ? [] : buffers[other(side)].entries();
        const matches = residual ? candidates.filter(([, o]) => satisfies(side, el.row, o.row)) : candidates;
        let total = 0;
        for (const [, o] of matches) total += o.count;
        const id = buffers[side].idOf(el.row);
        if (isAddition(el.kind)) accumulate(side, el, id, matches, total);
        else retract(side, el, id, matches, total);
      },

      inspect(): JoinBufferView[] {
        const out: JoinBufferView[] = [];
        const saved = ctx.state.currentKey();
        try {
          for (const side of ['left', 'right'] as const) {
            for (const key of new Set(buffers[side].stateNames.flatMap((n) => ctx.state.keys(n)))) {
              if (out.length >= JOIN_INSPECT_LIMIT) return out;
              ctx.state.setCurrentKey(key);
              const others = buffers[other(side)].entries();
              for (const [, b] of buffers[side].entries()) {
                if (out.length >= JOIN_INSPECT_LIMIT) break;
                let count = 0;
                if (!outer[side] && !hasNullKey(b.row, keys[side])) for (const [, o] of others) if (satisfies(side, b.row, o.row)) count += o.count;
                const matches = outer[side] ? b.matches : count;
                out.push({ side, key, row: b.row, ts: b.ts, count: b.count, matches });
              }
            }
          }
          return out;
        } finally {
          ctx.state.setCurrentKey(saved);
        }
      },
    };
  },
};
