import { useDismiss } from '../shell/useDismiss.ts';
import { useRef, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from './runStore.ts';
import { dispatch } from '../actions/registry.ts';
import { updateSettings } from '../actions/docActions.ts';
import { SPEEDS, setSpeed } from './runController.ts';
import { liveEngine } from './engineClient.ts';
import { codeLimitsOf } from '../../engine/codeHost.ts';
import type { CodeLimits } from '../../engine/codeHost.ts';

const CHECKPOINTS: { label: string; value: number | null }[] = [
  { label: 'off', value: null },
  { label: '500 ms', value: 500 },
  { label: '1 s', value: 1000 },
  { label: '5 s', value: 5000 },
  { label: '30 s', value: 30000 },
];

const PARALLELISMS = [1, 2, 3, 4, 5, 6, 7, 8];

const CODE_TIMES = [
  { label: '1 s', value: 1000 },
  { label: '2 s', value: 2000 },
  { label: '5 s', value: 5000 },
  { label: '30 s', value: 30000 },
];
const CODE_MEMORIES = [
  { label: '16 MB', value: 16 },
  { label: '64 MB', value: 64 },
  { label: '256 MB', value: 256 },
  { label: '1 GB', value: 1024 },
];

/** One of settings.code's limits; a value set in the pipeline's JSON that is not offered is kept and shown. */
function CodeLimitField({ which, label, title, choices }: { which: keyof CodeLimits; label: string; title: string; choices: { label: string; value: number }[] }) {
  const code = useStore(editorStore, (s) => s.doc.settings?.code);
  const value = codeLimitsOf({ code })[which];
  const all = choices.some((c) => c.value === value) ? choices : [...choices, { label: `${value} ${which === 'timeoutMs' ? 'ms' : 'MB'}`, value }];
  return (
    <label className="inline-field" title={title}>
      <span>{label}</span>
      <select className="input input-small" value={String(value)} onChange={(e) => dispatch(updateSettings, { code: { ...code, [which]: Number(e.target.value) } })}>
        {all.map((c) => (
          <option key={c.value} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The source pace; `where` says which copy it is (in the row, or in the popover when the panel is narrow). */
function SpeedField({ where }: { where: string }) {
  const t = useT();
  const speed = useStore(runStore, (s) => s.speed);
  return (
    <label className={`inline-field ${where}`} title={t('run.speedTitle')}>
      <span>{t('run.speed')}</span>
      <select className="input input-small" value={speed === null ? 'max' : String(speed)} onChange={(e) => setSpeed(e.target.value === 'max' ? null : Number(e.target.value))}>
        {SPEEDS.map((s) => (
          <option key={s.label} value={s.value === null ? 'max' : String(s.value)}>
            {s.value === null ? t('run.speedMax') : s.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * How the next (or current) run behaves, in the output panel's tab row: the speed stays in sight (it
 * is changed while watching); the state backend, checkpoint interval and default parallelism open from
 * one "Settings" button, so the row holds the tabs on one line at laptop and projector widths. When the
 * panel is narrow the speed moves into the popover too (CSS shows one of the two copies, never both).
 */
export function RunSettings() {
  const t = useT();
  const backend = useStore(editorStore, (s) => s.doc.settings?.stateBackend ?? 'memory');
  const interval = useStore(editorStore, (s) => s.doc.settings?.checkpoint?.intervalMs ?? null);
  const parallelism = useStore(editorStore, (s) => s.doc.settings?.parallelism ?? 1);
  const runtime = useStore(editorStore, (s) => s.doc.settings?.runtime ?? 'inProcess');
  const parallel = useStore(editorStore, (s) => s.doc.nodes.some((n) => (n.parallelism ?? s.doc.settings?.parallelism ?? 1) > 1));
  const onWorkers = runtime === 'workers' && parallel;
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useDismiss(open, () => setOpen(false), box);
  const summary = t('run.settingsSummary', {
    state: backend === 'indexeddb' ? t('run.stateIndexedDb') : t('run.stateMemory'),
    checkpoint: interval === null ? t('run.checkpointOff') : (CHECKPOINTS.find((c) => c.value === interval)?.label ?? `${interval} ms`),
    parallelism,
    runIn: onWorkers ? t('run.runInWorkers') : t('run.runInProcess'),
  });
  return (
    <div className="run-settings" role="group" aria-label={t('run.settings')} ref={box}>
      <SpeedField where="speed-inline" />
      <button type="button" className="btn btn-small btn-ghost run-settings-toggle" aria-expanded={open} aria-haspopup="dialog" title={summary} onClick={() => setOpen(!open)}>
        {t('run.settingsButton')} ▾
      </button>
      {open && (
        <div className="run-settings-pop" role="dialog" aria-label={t('run.settings')}>
          <SpeedField where="speed-in-pop" />
          <label className="inline-field" title={t('run.stateTitle')}>
            <span>{t('run.state')}</span>
            <select className="input input-small" value={backend} onChange={(e) => dispatch(updateSettings, { stateBackend: e.target.value as 'memory' | 'indexeddb' })}>
              <option value="memory">{t('run.stateMemory')}</option>
              <option value="indexeddb">{t('run.stateIndexedDb')}</option>
            </select>
          </label>
          <label className="inline-field" title={t('run.checkpointTitle')}>
            <span>{t('run.checkpoint')}</span>
            <select
              className="input input-small"
              value={interval === null ? 'off' : String(interval)}
              onChange={(e) => {
                const ms = e.target.value === 'off' ? null : Number(e.target.value);
                dispatch(updateSettings, { checkpoint: { intervalMs: ms } });
                void liveEngine()?.setCheckpointInterval(ms);
              }}
            >
              {CHECKPOINTS.map((c) => (
                <option key={c.label} value={c.value === null ? 'off' : String(c.value)}>
                  {c.value === null ? t('run.checkpointOff') : c.label}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field" title={t('run.parallelismTitle')}>
            <span>{t('run.parallelism')}</span>
            <select className="input input-small" value={String(parallelism)} onChange={(e) => dispatch(updateSettings, { parallelism: Number(e.target.value) })}>
              {PARALLELISMS.map((p) => (
                <option key={p} value={String(p)}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field" title={t('run.runInTitle')}>
            <span>{t('run.runIn')}</span>
            <select className="input input-small" value={onWorkers ? 'workers' : 'inProcess'} onChange={(e) => dispatch(updateSettings, { runtime: e.target.value as 'inProcess' | 'workers' })}>
              <option value="inProcess">{t('run.runInProcess')}</option>
              <option value="workers" disabled={!parallel}>
                {parallel ? t('run.runInWorkers') : t('run.runInWorkersNeedsParallel')}
              </option>
            </select>
          </label>
          {runtime === 'workers' && !parallel && <p className="run-settings-note">{t('run.runInSerialNote')}</p>}
          <CodeLimitField which="timeoutMs" label={t('run.codeTime')} title={t('run.codeTimeTitle')} choices={CODE_TIMES} />
          <CodeLimitField which="memoryMb" label={t('run.codeMemory')} title={t('run.codeMemoryTitle')} choices={CODE_MEMORIES} />
          <p className="run-settings-note">{t('run.settingsNote')}</p>
        </div>
      )}
    </div>
  );
}
