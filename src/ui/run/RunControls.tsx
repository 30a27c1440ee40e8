import { useStore } from '../store/createStore.ts';
import { runStore } from './runStore.ts';
import { pausePipeline, runPipeline, stepPipeline, stopPipeline } from './runController.ts';
import { PauseIcon, PlayIcon, StepIcon, StopIcon } from '../shell/icons.tsx';

/** Run, pause, step and stop. */
export function RunControls() {
  const status = useStore(runStore, (s) => s.snapshot?.status ?? 'idle');
  const busy = useStore(runStore, (s) => s.busy);
  const running = status === 'running';
  const live = running || status === 'paused' || status === 'ready';
  return (
    <div className="run-controls" role="toolbar" aria-label="Run controls">
      <button type="button" className="btn btn-primary" onClick={() => void runPipeline()} disabled={busy || running} title="Run the pipeline in the engine worker">
        <PlayIcon /> Run
      </button>
      <button type="button" className="btn" onClick={pausePipeline} disabled={!running} title="Pause">
        <PauseIcon /> Pause
      </button>
      <button type="button" className="btn" onClick={() => void stepPipeline()} disabled={busy || running} title="Read one record and let it flow through">
        <StepIcon /> Step
      </button>
      <button type="button" className="btn" onClick={stopPipeline} disabled={!live && status !== 'finished' && status !== 'failed'} title="Stop; the next run starts from the beginning">
        <StopIcon /> Stop
      </button>
    </div>
  );
}
