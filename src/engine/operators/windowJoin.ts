import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../../core/types.ts';
import { mapState } from '../../state/descriptors.ts';
import type { WindowJoinParams } from '../../pipeline/kinds/windowJoin.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { windowedStream } from '../../pipeline/kinds/windowing.ts';
import { compileExpr } from '../../expr/index.ts';
import { hasNullKey, notInMatches, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';
import { maxTimestamp, windowId } from './window/assigners.ts';
import { firedWindow, WindowedInput } from './window/windowing.ts';

type Side = 'left' | 'right';

/**
 * Flink's WindowJoinOperator: each side's rows wait per join key and window; when the watermark
 * passes window_end − 1 the window joins once (inner pairs, then padding for the preserved sides;
 * for a semi or anti join, the left rows that have or lack a partner) and its state goes. Nothing
 * is retracted later, so the output is append-only.
 */
export const windowJoin: OperatorDefinition<WindowJoinParams> = {
  kind: 'windowJoin',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const windows = new WindowedInput(ctx, params.window);
    const buffers: Record<Side, ReturnType<typeof ctx.state.map<string, Row[]>>> = {
      left: ctx.state.map(mapState<string, Row[]>('windowJoin.left')),
      right: ctx.state.map(mapState<string, Row[]>('windowJoin.right')),
    };
    const info = (port: Side) => (ctx.inputs[port] ? windowedStream(params.window, ctx.inputs[port]) : undefined);
    const joiner = new RowJoiner(info('left'), info('right'), params.leftKey);
    const residual = params.nonEquiCondition !== undefined ? compileExpr(params.nonEquiCondition, ctx) : null;
    const outerLeft = params.type === 'left' || params.type === 'full';
    const outerRight = params.type === 'right' || params.type === 'full';
    const semiOrAnti = params.type === 'semi' || params.type === 'anti';
    const pair = params.nullAware;

    /** Whether left row l has a partner in the window: keys equal and not NULL, NOT IN's pair not certainly different, the residual TRUE. */
    const hasPartner = (l: Row, right: readonly Row[]): boolean => {
      if (hasNullKey(l, params.leftKey)) return false;
      return right.some((r) => {
        if (hasNullKey(r, params.rightKey) || !notInMatches(pair, l, r)) return false;
        return !residual || residual.evaluate(joiner.join(l, r)) === true;
      });
    };

    function emitSemiOrAnti(left: readonly Row[], right: readonly Row[], ts: number): void {
      const semi = params.type === 'semi';
      for (const l of left) if (hasPartner(l, right) === semi) ctx.emit({ kind: '+I', row: l, ts });
    }

    return {
      processElement(el, port) {
        if (port !== 'left' && port !== 'right') return ctx.deadLetter(`window join has no input port "${port}"`, el.row);
        if (el.kind !== '+I') return ctx.deadLetter(`window join takes only inserts, got ${el.kind}`, el.row);
        const bounds = windows.windowsOf(el);
        if (typeof bounds === 'string') return ctx.deadLetter(bounds, el.row);
        for (const b of bounds) {
          const id = windowId(b);
          const rows = buffers[port].get(id) ?? [];
          rows.push(windows.rowIn(el.row, b));
          buffers[port].put(id, rows);
          windows.watch(b);
        }
      },
      onTimer(t) {
        const id = String(t.namespace);
        const left = buffers.left.get(id) ?? [];
        const right = buffers.right.get(id) ?? [];
        buffers.left.remove(id);
        buffers.right.remove(id);
        const ts = maxTimestamp(firedWindow(t.namespace));
        if (semiOrAnti) return emitSemiOrAnti(left, right, ts);
        const rightMatched = right.map(() => false);
        for (const l of left) {
          let matched = false;
          if (!hasNullKey(l, params.leftKey)) {
            right.forEach((r, i) => {
              if (hasNullKey(r, params.rightKey)) return;
              const joined = joiner.join(l, r);
              if (residual && residual.evaluate(joined) !== true) return;
              matched = rightMatched[i] = true;
              ctx.emit({ kind: '+I', row: joined, ts });
            });
          }
          if (!matched && outerLeft) ctx.emit({ kind: '+I', row: joiner.padRight(l), ts });
        }
        if (outerRight) right.forEach((r, i) => rightMatched[i] || ctx.emit({ kind: '+I', row: joiner.padLeft(r), ts }));
      },
      inspect: () => ({ watermark: ctx.currentWatermark(), windows: ctx.state.keys('windowJoin.left').length + ctx.state.keys('windowJoin.right').length }),
    };
  },
};
