import type { OperatorDefinition } from '../operator.ts';
import type { Key, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { listState, valueState } from '../../state/descriptors.ts';
import type { LookupJoinParams } from '../../pipeline/kinds/lookupJoin.ts';
import { loadsFirst } from '../../pipeline/kinds/lookupJoin.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { hasNullKey, JOIN_INSPECT_LIMIT, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';

/** A left row waiting for the dimension table to be loaded; `seq` keeps the arrival order across keys. */
interface Waiting {
  row: Row;
  ts: number | null;
  seq: number;
}

export type LookupBufferView = { side: 'left'; key: unknown; row: Row; ts: number | null } | { side: 'right'; key: unknown; row: Row };

const TABLE = 'lookupJoin.table';
const WAITING = 'lookupJoin.waiting';
/** Non-keyed facts of the subtask: whether the right input ended, and the arrival counter. */
const PROGRESS = 'lookupJoin.progress';

/**
 * Processing-time lookup join (Flink's LookupJoin): each left row reads the dimension table's
 * current row for its key once. The table is the right input's changelog, kept by key; with
 * `loadFirst` left rows wait until that input has ended, so the whole table is there when they look.
 */
export const lookupJoin: OperatorDefinition<LookupJoinParams> = {
  kind: 'lookupJoin',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const table = ctx.state.value(valueState<Row>(TABLE));
    const waiting = ctx.state.list(listState<Waiting>(WAITING));
    const joiner = new RowJoiner(ctx.inputs.left, ctx.inputs.right, params.leftKey);
    // Broadcast operator state, restored from one subtask's copy: every subtask sees the right
    // input end before the same barrier, so they agree on it; the counter only orders rows.
    const progress = () => ctx.operatorState.broadcast<number | boolean>(PROGRESS);
    const rightEnded = () => progress().get('rightEnded') === true;
    const waits = () => loadsFirst(params) && !ctx.endlessInputs.includes('right') && !rightEnded();

    /** Joins one left row with the table as it is now (the key context is the row's). */
    function probe(row: Row, ts: number | null): void {
      const dim = hasNullKey(row, params.leftKey) ? undefined : table.value();
      if (dim) {
        ctx.emit({ kind: '+I', row: joiner.join(row, dim), ts });
        ctx.count('joinMatches');
      } else if (params.type === 'left') ctx.emit({ kind: '+I', row: joiner.padRight(row), ts });
    }

    function onLeft(row: Row, ts: number | null): void {
      if (!waits() || hasNullKey(row, params.leftKey)) return probe(row, ts);
      const seq = (progress().get('arrivals') as number | undefined) ?? 0;
      progress().set('arrivals', seq + 1);
      waiting.add({ row, ts, seq });
      ctx.count('waitingRows');
    }

    function onRight(row: Row, live: boolean): void {
      // A NULL key matches nothing, so such a row is never looked up.
      if (hasNullKey(row, params.rightKey)) return;
      if (live) table.update(row);
      else table.clear();
    }

    /** The table is loaded: every waiting row is joined, in arrival order. */
    function flush(): void {
      const saved = ctx.state.currentKey();
      const due: { key: Key; w: Waiting }[] = [];
      for (const key of ctx.state.keys(WAITING)) {
        ctx.state.setCurrentKey(key);
        for (const w of waiting.get()) due.push({ key, w });
        waiting.clear();
      }
      due.sort((a, b) => a.w.seq - b.w.seq);
      for (const { key, w } of due) {
        ctx.state.setCurrentKey(key);
        probe(w.row, w.ts);
      }
      ctx.state.setCurrentKey(saved);
    }

    return {
      processElement(el, port) {
        if (port === 'right') return onRight(el.row, isAddition(el.kind));
        if (port !== 'left') return ctx.deadLetter(`lookup join has no input port "${port}"`, el.row);
        if (el.kind !== '+I') return ctx.deadLetter(`lookup join takes only inserts on its left (probe) input, got ${el.kind}`, el.row);
        onLeft(el.row, el.ts);
      },

      endPort(port) {
        if (port !== 'right' || rightEnded()) return;
        progress().set('rightEnded', true);
        flush();
      },

      inspect(): LookupBufferView[] {
        const out: LookupBufferView[] = [];
        const saved = ctx.state.currentKey();
        try {
          for (const key of ctx.state.keys(WAITING)) {
            ctx.state.setCurrentKey(key);
            for (const w of waiting.get()) if (out.length < JOIN_INSPECT_LIMIT) out.push({ side: 'left', key, row: w.row, ts: w.ts });
          }
          for (const key of ctx.state.keys(TABLE)) {
            ctx.state.setCurrentKey(key);
            const row = table.value();
            if (row && out.length < JOIN_INSPECT_LIMIT) out.push({ side: 'right', key, row });
          }
          return out;
        } finally {
          ctx.state.setCurrentKey(saved);
        }
      },
    };
  },
};
