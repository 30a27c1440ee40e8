import { useState } from 'react';
import type { StateDiff } from '../../runtime/observe/types.ts';
import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { currentFrame } from './frameSelectors.ts';
import { DEFAULT_RETAIN, checkpointKey, diffPair, durationBars, retainedIds, togglePick } from './checkpointLogic.ts';
import { editorStore } from '../store/editorStore.ts';
import { CheckpointRow } from './CheckpointRow.tsx';
import { DiffView } from './DiffView.tsx';
import { checkpointNow, diffCheckpoints, downloadSavepoint, restoreTo } from './controls.ts';
import { SavepointUpload } from './SavepointUpload.tsx';
import { PanelHint } from './PanelHint.tsx';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Every checkpoint of the run with its timings and sizes; time travel, diff and savepoints. */
export function CheckpointsPanel() {
  const t = useT();
  const cps = useStore(runStore, (s) => currentFrame(s)?.checkpoints ?? null);
  const inFlight = useStore(runStore, (s) => currentFrame(s)?.inFlightCheckpoint ?? null);
  const retain = useStore(editorStore, (s) => s.doc.settings?.checkpoint?.retain ?? DEFAULT_RETAIN);
  const memory = useStore(editorStore, (s) => (s.doc.settings?.stateBackend ?? 'memory') === 'memory');
  const onWorkers = useStore(runStore, (s) => s.snapshot?.runsOn === 'workers');
  const [picked, setPicked] = useState<number[]>([]);
  const [diff, setDiff] = useState<StateDiff | null>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const pair = diffPair(picked);

  const act = (work: () => Promise<unknown>, done?: string) => {
    setMessage(null);
    work().then(
      () => done && setMessage({ tone: 'ok', text: done }),
      (e) => setMessage({ tone: 'error', text: errorText(e) }),
    );
  };
  const bars = durationBars(cps ?? []);
  const retained = retainedIds(cps ?? [], retain);
  return (
    <div className="obs-panel">
      <div className="obs-bar">
        <strong>{t('observatory.cp.count', { n: cps?.filter((c) => c.status === 'completed').length ?? 0, total: cps?.length ?? 0 })}</strong>
        {inFlight !== null && <span className="chip chip-warn obs-inflight">{t('observatory.cp.inFlight', { id: inFlight })}</span>}
        <span className="spacer" />
        <button type="button" className="btn btn-small" disabled={!cps} onClick={checkpointNow}>
          {t('observatory.cp.trigger')}
        </button>
        <button type="button" className="btn btn-small" disabled={!pair || onWorkers} title={onWorkers ? t('observatory.cp.onWorkers') : pair ? undefined : t('observatory.cp.pickTwo')} onClick={() => pair && act(() => diffCheckpoints(pair[0], pair[1]).then(setDiff))}>
          {t('observatory.cp.diff')}
        </button>
        <SavepointUpload />
      </div>
      {message && (
        <div className={`obs-message obs-message-${message.tone}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </div>
      )}
      {diff && <DiffView diff={diff} onClose={() => setDiff(null)} />}
      {!cps ? (
        <PanelHint text={t('observatory.hint.runCheckpoints')} />
      ) : cps.length === 0 ? (
        <PanelHint text={t('observatory.hint.noCheckpoints')} />
      ) : (
        <>
        <div className="obs-cp-line obs-cp-head" aria-hidden>
          <span className="obs-cp-expand" />
          <span className="obs-cp-id">{t('observatory.cp.id')}</span>
          <span className="obs-cp-status">{t('observatory.cp.statusHead')}</span>
          <span className="obs-cp-bar-head">{t('observatory.cp.durationHead')}</span>
          <span className="obs-cp-num">{t('observatory.cp.fullHead')}</span>
          <span className="obs-cp-num">{t('observatory.cp.incrementalHead')}</span>
          <span className="obs-cp-actions">{t('observatory.cp.retainedHead', { n: retain })}</span>
        </div>
        {/* Otherwise "Written" equal to "Full size" reads like a broken incremental checkpoint. */}
        {memory && <p className="muted small obs-cp-note">{t('observatory.cp.memoryFull')}</p>}
        {onWorkers && <p className="muted small obs-cp-note">{t('observatory.cp.onWorkers')}</p>}
        <ol className="obs-cps" aria-label={t('observatory.cp.timeline')}>
          {[...cps].reverse().map((cp) => (
            <CheckpointRow
              key={checkpointKey(cp)}
              cp={cp}
              bar={bars.get(cp.checkpointId) ?? 0}
              retained={retained.has(cp.checkpointId)}
              actions={!onWorkers}
              picked={picked.includes(cp.checkpointId)}
              onPick={() => setPicked((p) => togglePick(p, cp.checkpointId))}
              onRestore={() => act(() => restoreTo(cp.checkpointId), t('observatory.cp.restored', { id: cp.checkpointId }))}
              onDownload={() => act(() => downloadSavepoint(cp.checkpointId))}
            />
          ))}
        </ol>
        </>
      )}
    </div>
  );
}
