import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from './runStore.ts';
import { dispatch } from '../actions/registry.ts';
import { updateSettings } from '../actions/docActions.ts';
import { SPEEDS, setSpeed } from './runController.ts';
import { engine } from './engineClient.ts';

const CHECKPOINTS: { label: string; value: number | null }[] = [
  { label: 'off', value: null },
  { label: '500 ms', value: 500 },
  { label: '1 s', value: 1000 },
  { label: '5 s', value: 5000 },
  { label: '30 s', value: 30000 },
];

const PARALLELISMS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Speed, state backend, checkpoint interval and default parallelism: how the next (or current) run behaves. */
export function RunSettings() {
  const t = useT();
  const speed = useStore(runStore, (s) => s.speed);
  const backend = useStore(editorStore, (s) => s.doc.settings?.stateBackend ?? 'memory');
  const interval = useStore(editorStore, (s) => s.doc.settings?.checkpoint?.intervalMs ?? null);
  const parallelism = useStore(editorStore, (s) => s.doc.settings?.parallelism ?? 1);
  return (
    <div className="run-settings" role="group" aria-label={t('run.settings')}>
      <label className="inline-field" title={t('run.speedTitle')}>
        <span>{t('run.speed')}</span>
        <select className="input input-small" value={speed === null ? 'max' : String(speed)} onChange={(e) => setSpeed(e.target.value === 'max' ? null : Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s.label} value={s.value === null ? 'max' : String(s.value)}>
              {s.value === null ? t('run.speedMax') : s.label}
            </option>
          ))}
        </select>
      </label>
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
            void engine().setCheckpointInterval(ms);
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
    </div>
  );
}
