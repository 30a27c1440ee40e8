import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from './runStore.ts';
import { RunScrubber } from './RunScrubber.tsx';

const fmt = (n: number): string => Math.round(n).toLocaleString();

/** One glance: what the job is doing, how fast, how many checkpoints and restarts; beside it, the run's history to scrub. */
export function RunStatusPill() {
  const t = useT();
  const snap = useStore(runStore, (s) => s.snapshot);
  const status = snap?.status ?? 'idle';
  const parts = [t(`run.status.${status}`), t('run.pill.records', { n: fmt(snap?.records ?? 0) })];
  if (status === 'running') parts.push(t('run.pill.rate', { n: fmt(snap?.rate ?? 0) }));
  if (snap?.runsOn === 'workers' && snap.threads) parts.push(t('run.pill.threads', { n: snap.threads }));
  if (snap?.checkpoints) parts.push(t(snap.checkpoints === 1 ? 'run.pill.checkpoint' : 'run.pill.checkpoints', { n: snap.checkpoints }));
  if (snap?.restarts) parts.push(t(snap.restarts === 1 ? 'run.pill.restart' : 'run.pill.restarts', { n: snap.restarts }));
  const text = status === 'idle' ? t('run.status.idle') : status === 'failed' ? t('run.pill.failed', { reason: snap?.error?.message ?? '' }) : parts.join(' · ');
  return (
    <span className="run-status-row">
      <span className={`status-pill status-${status}`} role="status" aria-label={t('run.status')} title={status === 'idle' ? text : `${text}\n${t('run.pill.explain')}`}>
        <span className="status-dot" aria-hidden />
        {text}
      </span>
      <RunScrubber />
    </span>
  );
}
