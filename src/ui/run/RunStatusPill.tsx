import { useStore } from '../store/createStore.ts';
import { runStore } from './runStore.ts';

const fmt = (n: number): string => Math.round(n).toLocaleString();

/** One glance: what the job is doing and how fast. */
export function RunStatusPill() {
  const snap = useStore(runStore, (s) => s.snapshot);
  const status = snap?.status ?? 'idle';
  const text =
    status === 'idle'
      ? 'Not running'
      : status === 'failed'
        ? `Failed: ${snap?.error?.message ?? ''}`
        : `${status[0].toUpperCase()}${status.slice(1)} · ${fmt(snap?.records ?? 0)} records${status === 'running' ? ` · ${fmt(snap?.rate ?? 0)}/s` : ''}${snap?.checkpoints ? ` · ${snap.checkpoints} checkpoint${snap.checkpoints === 1 ? '' : 's'}` : ''}`;
  return (
    <span className={`status-pill status-${status}`} role="status" aria-label="Run status" title={text}>
      <span className="status-dot" aria-hidden />
      {text}
    </span>
  );
}
