import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../../core/types.ts';
import { valueState } from '../../state/descriptors.ts';
import type { DedupParams } from '../../pipeline/kinds/dedup.ts';
import { windowDedup } from './window/windowDedup.ts';

/** The row currently kept for a key, with the event time that ranks it. */
interface Kept {
  row: Row;
  ts: number | null;
}

export const dedup: OperatorDefinition<DedupParams> = {
  kind: 'dedup',
  keyFields: (p) => p.key,
  create({ ctx, params }) {
    if (params.window) return windowDedup(ctx, params.window, params.keep === 'first');
    const byEventTime = (params.order ?? 'arrival') === 'eventTime';
    const keepFirst = params.keep === 'first';
    const kept = ctx.state.value(valueState<Kept>('kept'));

    /** Whether a newcomer displaces the kept row; equal times favour the earlier arrival for first, the later for last. */
    const wins = (ts: number, old: Kept): boolean => {
      if (!byEventTime) return !keepFirst;
      const oldTs = old.ts ?? -Infinity;
      return keepFirst ? ts < oldTs : ts >= oldTs;
    };

    return {
      processElement(el) {
        if (el.kind !== '+I') return ctx.deadLetter(`Deduplicate needs an insert-only input, got ${el.kind}`, el.row);
        if (byEventTime && (el.ts === null || !Number.isFinite(el.ts))) return ctx.deadLetter('row has no event time to order duplicates by', el.row);
        const old = kept.value();
        if (!old) {
          kept.update({ row: el.row, ts: el.ts });
          return ctx.emit({ kind: '+I', row: el.row, ts: el.ts });
        }
        // Either the newcomer or the row it displaces is dropped: rows in − keys = duplicatesDropped.
        ctx.count('duplicatesDropped');
        if (!wins(el.ts ?? -Infinity, old)) return;
        kept.update({ row: el.row, ts: el.ts });
        ctx.emit({ kind: '-U', row: old.row, ts: el.ts });
        ctx.emit({ kind: '+U', row: el.row, ts: el.ts });
      },
      inspect() {
        const saved = ctx.state.currentKey();
        const keys = ctx.state.keys('kept');
        const sample = keys.slice(0, 200).map((k) => {
          ctx.state.setCurrentKey(k);
          return { key: k, row: kept.value()?.row ?? null };
        });
        ctx.state.setCurrentKey(saved);
        return { keep: params.keep, order: params.order ?? 'arrival', keys: keys.length, kept: sample };
      },
    };
  },
};
