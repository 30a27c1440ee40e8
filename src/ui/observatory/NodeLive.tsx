import { memo } from 'react';
import type { NodeObservation } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtBytes, fmtCount, fmtMs } from './format.ts';
import { nodeObservation, sameBy, useFrameSlice } from './frameSelectors.ts';

const signature = (n: NodeObservation | undefined): string =>
  n
    ? `${n.keys}|${n.bytes}|${n.subtasks
        .map((s) => `${s.alive}:${s.aligning ? `${s.aligning.checkpointId},${s.aligning.blockedInputs.join('+')},${s.aligning.buffered}` : ''}:${s.lastSnapshot ? `${s.lastSnapshot.checkpointId},${s.lastSnapshot.syncMs},${s.lastSnapshot.asyncMs}` : ''}`)
        .join(';')}`
    : '';
const same = sameBy(signature);

/**
 * A stateful node's live badges: key count and state size; during barrier alignment the blocked
 * inputs and buffered records; for a moment after a snapshot its sync and async time.
 */
function NodeLiveView({ id, sink = false }: { id: string; sink?: boolean }) {
  const t = useT();
  const n = useFrameSlice((f) => nodeObservation(f, id), same);
  if (!n) return null;
  const aligning = n.subtasks.filter((s) => s.aligning);
  const snap = n.subtasks.find((s) => s.lastSnapshot)?.lastSnapshot ?? null;
  const dead = n.subtasks.filter((s) => !s.alive).length;
  const stateful = n.keys > 0 || n.bytes > 0;
  if (!stateful && !aligning.length && !snap && !dead) return null;
  return (
    <div className="obs-node-live">
      {stateful && (
        // A sink's state is its table: one entry per row (per primary key, or per distinct row), as Results counts them.
        <span className="obs-state-badge" aria-label={t(sink ? 'observatory.node.sinkState' : 'observatory.node.state', { node: id, keys: fmtCount(n.keys), bytes: fmtBytes(n.bytes) })}>
          {t(sink ? 'observatory.node.sinkStateShort' : 'observatory.node.stateShort', { keys: fmtCount(n.keys), bytes: fmtBytes(n.bytes) })}
        </span>
      )}
      {aligning.map((s) => (
        <span key={s.index} className="obs-aligning">
          #{s.index} {t('observatory.node.aligning', { id: s.aligning!.checkpointId, inputs: s.aligning!.blockedInputs.join(', '), n: s.aligning!.buffered })}
        </span>
      ))}
      {snap && (
        <span key={snap.checkpointId} className="obs-snapshot" title={t('observatory.node.snapshotTitle', { id: snap.checkpointId })}>
          {t('observatory.node.snapshot', { sync: fmtMs(snap.syncMs), async: fmtMs(snap.asyncMs) })}
        </span>
      )}
      {dead > 0 && <span className="obs-dead">{t('observatory.node.dead')}</span>}
    </div>
  );
}

export const NodeLive = memo(NodeLiveView);
