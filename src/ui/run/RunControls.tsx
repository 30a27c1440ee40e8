import { useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import type { StepKind } from '../../worker/protocol.ts';
import { runStore } from './runStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { checkpointNow, pausePipeline, runPipeline, stepBackPipeline, stepPipeline, stopPipeline } from './runController.ts';
import { KillSubtaskPicker } from './KillSubtaskPicker.tsx';
import { RunMore } from './RunMore.tsx';
import { PauseIcon, PlayIcon, StepBackIcon, StepIcon, StopIcon } from '../shell/icons.tsx';
import './run.css';

const STEP_KINDS: StepKind[] = ['record', 'watermark', 'barrier'];

/** Run, pause, step forward or back (by record, watermark or barrier), stop, checkpoint now, kill a subtask. */
export function RunControls() {
  const t = useT();
  const status = useStore(runStore, (s) => s.snapshot?.status ?? 'idle');
  const busy = useStore(runStore, (s) => s.busy);
  const history = useStore(runStore, (s) => s.snapshot?.history ?? null);
  // A run on Web Workers cannot be stepped or replayed: the buttons say so and how to get them.
  const liveOnWorkers = useStore(runStore, (s) => s.snapshot?.runsOn === 'workers');
  // A new run (from idle, finished or failed) goes where the settings say.
  const settingWorkers = useStore(editorStore, (s) => s.doc.settings?.runtime === 'workers' && s.doc.nodes.some((n) => (n.parallelism ?? s.doc.settings?.parallelism ?? 1) > 1));
  const [stepKind, setStepKind] = useState<StepKind>('record');
  const running = status === 'running';
  const live = running || status === 'paused' || status === 'ready';
  const onWorkers = live ? liveOnWorkers : settingWorkers;
  const kind = t(`run.stepKind.${stepKind}`);
  const extra = (
    <>
      <button type="button" className="btn" onClick={checkpointNow} disabled={!live} title={t('run.checkpointNowTitle')}>
        {t('run.checkpointNow')}
      </button>
      <KillSubtaskPicker disabled={!live} />
    </>
  );
  return (
    <div className="run-controls" role="toolbar" aria-label={t('run.toolbar')}>
      <button type="button" className="btn btn-primary" onClick={() => void runPipeline()} disabled={busy || running} title={t('run.runTitle')}>
        <PlayIcon /> {t('run.run')}
      </button>
      {/* Pause and Stop are icon buttons (named by aria-label and tooltip) so the run controls keep one row; the view tabs and edit tools sit on the row above. */}
      <button type="button" className="btn btn-square" onClick={pausePipeline} disabled={!running} aria-label={t('run.pause')} title={t('run.pause')}>
        <PauseIcon />
      </button>
      <span className="run-step">
        <button
          type="button"
          className="btn btn-square"
          onClick={() => void stepBackPipeline(stepKind)}
          disabled={busy || onWorkers || !history || history.at === 0 || history.replayable !== null}
          aria-label={t('run.stepBack')}
          title={onWorkers ? t('run.onWorkers.stepBack') : history?.replayable ? t('run.scrubberUnavailable.resumed') : t('run.stepBackTitle', { kind })}
        >
          <StepBackIcon />
        </button>
        <button type="button" className="btn" onClick={() => void stepPipeline(stepKind)} disabled={busy || running || onWorkers} title={onWorkers ? t('run.onWorkers.step') : t('run.stepTitle', { kind })}>
          <StepIcon /> <span className="run-step-label">{t('run.step')}</span>
        </button>
        <select className="input input-small" aria-label={t('run.stepKind')} title={t('run.stepKind')} disabled={onWorkers} value={stepKind} onChange={(e) => setStepKind(e.target.value as StepKind)}>
          {STEP_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`run.stepKind.${k}`)}
            </option>
          ))}
        </select>
      </span>
      <button type="button" className="btn btn-square" onClick={stopPipeline} disabled={!live && status !== 'finished' && status !== 'failed'} aria-label={t('run.stop')} title={t('run.stopTitle')}>
        <StopIcon />
      </button>
      {/* The less frequent actions: in the row when the canvas column has room, else under More. */}
      <span className="run-extra">{extra}</span>
      <RunMore>{extra}</RunMore>
    </div>
  );
}
