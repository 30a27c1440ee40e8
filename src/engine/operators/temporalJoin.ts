import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { mapState } from '../../state/descriptors.ts';
import type { TemporalJoinParams } from '../../pipeline/kinds/temporalJoin.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { hasNullKey, JOIN_INSPECT_LIMIT, maxTs, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';

/** One change of the versioned table: from `ts` on, the key has `row` (live) or no row (deleted). */
interface Version {
  row: Row;
  ts: number;
  live: boolean;
}

export type TemporalBufferView =
  | { side: 'left'; key: unknown; row: Row; ts: number }
  | { side: 'right'; key: unknown; row: Row; validFrom: number; validUntil: number | null; deleted: boolean };

/** The latest version at or before `ts`, from versions sorted by time. */
function versionAt(sorted: readonly Version[], ts: number): Version | undefined {
  let found: Version | undefined;
  for (const v of sorted) {
    if (v.ts > ts) break;
    found = v;
  }
  return found;
}

/**
 * Event-time temporal join (Flink's TemporalRowTimeJoinOperator): probe rows wait for the
 * watermark, so that every version valid at their time has arrived before they are joined.
 */
export const temporalJoin: OperatorDefinition<TemporalJoinParams> = {
  kind: 'temporalJoin',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const probes = ctx.state.map(mapState<number, Row[]>('temporalJoin.probe'));
    const versions = ctx.state.map(mapState<number, Version>('temporalJoin.versions'));
    const joiner = new RowJoiner(ctx.inputs.left, ctx.inputs.right, params.leftKey);
    const sortedVersions = () =>
      versions
        .entries()
        .map(([, v]) => v)
        .sort((a, b) => a.ts - b.ts);

    function onLeft(row: Row, ts: number): void {
      const wm = ctx.currentWatermark();
      if (ts <= wm) {
        ctx.count('lateRecords');
        return ctx.deadLetter(`late left row: its time ${ts} is not after the watermark ${wm}, versions it needs may be gone`, row);
      }
      const bucket = probes.get(ts) ?? [];
      bucket.push(row);
      probes.put(ts, bucket);
      ctx.timers.registerEventTimeTimer(ts, 'probe');
    }

    function onRight(row: Row, ts: number, live: boolean): void {
      // Same key and time: the later change wins, so -U then +U leaves the new row.
      versions.put(ts, { row, ts, live });
      ctx.timers.registerEventTimeTimer(ts, 'version');
    }

    /** Emits probe rows the watermark has reached, then drops versions no future probe can need. */
    function fire(wm: number): void {
      const sorted = sortedVersions();
      const due = probes
        .keys()
        .filter((ts) => ts <= wm)
        .sort((a, b) => a - b);
      for (const ts of due) {
        for (const row of probes.get(ts) ?? []) {
          const v = hasNullKey(row, params.leftKey) ? undefined : versionAt(sorted, ts);
          if (v?.live) {
            ctx.emit({ kind: '+I', row: joiner.join(row, v.row), ts: maxTs(ts, v.ts) });
            ctx.count('joinMatches');
          } else if (params.type === 'left') ctx.emit({ kind: '+I', row: joiner.padRight(row), ts });
        }
        probes.remove(ts);
      }
      const current = versionAt(sorted, wm);
      if (!current) return;
      // The newest version at or before the watermark stays, even a delete: a late change older
      // than it must not become the valid version again (Flink keeps it too).
      for (const v of sorted) {
        if (v.ts >= current.ts) break;
        versions.remove(v.ts);
        ctx.count('expiredVersions');
      }
    }

    return {
      processElement(el, port) {
        if (port !== 'left' && port !== 'right') return ctx.deadLetter(`temporal join has no input port "${port}"`, el.row);
        if (el.ts === null || !Number.isFinite(el.ts)) return ctx.deadLetter(`temporal join needs event time; the ${port} row has none`, el.row);
        // The versioned side is read as upserts, as Flink's planner asks of it (only the changes
        // after an update): a key's next version arrives as +U. A -U carries the old row, often
        // with the old row's time, where it would end the version it retracts.
        if (port === 'right') return el.kind === '-U' ? undefined : onRight(el.row, el.ts, isAddition(el.kind));
        if (el.kind !== '+I') return ctx.deadLetter(`temporal join takes only inserts on its left (probe) input, got ${el.kind}`, el.row);
        onLeft(el.row, el.ts);
      },

      onTimer(timer) {
        fire(Math.max(timer.ts, ctx.currentWatermark()));
      },

      inspect(): TemporalBufferView[] {
        const out: TemporalBufferView[] = [];
        const saved = ctx.state.currentKey();
        try {
          for (const key of ctx.state.keys('temporalJoin.probe')) {
            ctx.state.setCurrentKey(key);
            for (const [ts, rows] of probes.entries()) for (const row of rows) if (out.length < JOIN_INSPECT_LIMIT) out.push({ side: 'left', key, row, ts });
          }
          for (const key of ctx.state.keys('temporalJoin.versions')) {
            ctx.state.setCurrentKey(key);
            const sorted = sortedVersions();
            sorted.forEach((v, i) => {
              if (out.length < JOIN_INSPECT_LIMIT) out.push({ side: 'right', key, row: v.row, validFrom: v.ts, validUntil: sorted[i + 1]?.ts ?? null, deleted: !v.live });
            });
          }
          return out;
        } finally {
          ctx.state.setCurrentKey(saved);
        }
      },
    };
  },
};
