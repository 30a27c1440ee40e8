import { useEffect, useRef, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import type { HistoryView } from '../../worker/protocol.ts';
import { runStore } from './runStore.ts';
import { seekPipeline } from './runController.ts';

const MARK_KINDS = [
  ['checkpoints', 'checkpoint'],
  ['kills', 'kill'],
  ['restores', 'restore'],
] as const;

/**
 * A slider over the run's history, from the start to the furthest point reached: drag (or use the
 * arrow keys, Page Up/Down, Home/End) to go to any earlier point, and forward again. The engine
 * replays the run to that step exactly. Ticks mark checkpoints, kills and travels to a checkpoint.
 */
export function RunScrubber() {
  const t = useT();
  const history = useStore(runStore, (s) => s.snapshot?.history ?? null);
  const busy = useStore(runStore, (s) => s.busy);
  const [draft, setDraft] = useState<number | null>(null);
  const wanted = useRef<number | null>(null);

  // The last position asked for wins: a seek asked while another ran goes once that one is done.
  useEffect(() => {
    const want = wanted.current;
    if (busy || want === null || !history) return;
    if (want === history.at) {
      wanted.current = null;
      setDraft(null);
      return;
    }
    void seekPipeline(want);
  }, [busy, history]);

  if (!history || history.end === 0) return null;
  const commit = (v: number) => {
    wanted.current = v;
    if (!busy && v !== history.at) void seekPipeline(v);
    else if (v === history.at) setDraft(null);
  };
  const value = draft ?? history.at;
  const title = history.replayable ? t('run.scrubberUnavailable.resumed') : t('run.scrubberTitle');
  return (
    <span className="run-scrubber" title={title}>
      <span className="run-scrubber-track">
        <Marks history={history} t={t} />
        <input
          type="range"
          min={0}
          max={history.end}
          step={1}
          value={value}
          disabled={history.replayable !== null}
          aria-label={t('run.scrubber')}
          aria-valuetext={t('run.scrubberValue', { at: value.toLocaleString(), end: history.end.toLocaleString() })}
          onChange={(e) => setDraft(Number(e.target.value))}
          onPointerUp={(e) => commit(Number((e.target as HTMLInputElement).value))}
          onKeyUp={(e) => commit(Number((e.target as HTMLInputElement).value))}
          onBlur={(e) => draft !== null && commit(Number(e.target.value))}
        />
      </span>
      <output className="run-scrubber-value" aria-live="polite">
        {t('run.scrubberValue', { at: value.toLocaleString(), end: history.end.toLocaleString() })}
      </output>
    </span>
  );
}

function Marks({ history, t }: { history: HistoryView; t: ReturnType<typeof useT> }) {
  return (
    <span className="run-scrubber-marks" aria-hidden="true">
      {MARK_KINDS.flatMap(([field, kind]) =>
        history[field].map((at) => <i key={`${kind}-${at}`} className={`mark-${kind}`} style={{ left: `${(at / history.end) * 100}%` }} title={t(`run.scrubberMark.${kind}`, { at })} />),
      )}
    </span>
  );
}
