import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { runStore } from './runStore.ts';
import { dispatch } from '../actions/registry.ts';
import { updateSettings } from '../actions/docActions.ts';
import { SPEEDS, setSpeed } from './runController.ts';
import { engine } from './engineClient.ts';

const CHECKPOINTS: { label: string; value: number | null }[] = [
  { label: 'off', value: null },
  { label: '1 s', value: 1000 },
  { label: '5 s', value: 5000 },
  { label: '30 s', value: 30000 },
];

/** Speed, state backend and checkpoint interval: how the next (or current) run behaves. */
export function RunSettings() {
  const speed = useStore(runStore, (s) => s.speed);
  const backend = useStore(editorStore, (s) => s.doc.settings?.stateBackend ?? 'memory');
  const interval = useStore(editorStore, (s) => s.doc.settings?.checkpoint?.intervalMs ?? null);
  return (
    <div className="run-settings" role="group" aria-label="Run settings">
      <label className="inline-field" title="Records per second read from the sources">
        <span>Speed</span>
        <select className="input input-small" value={speed === null ? 'max' : String(speed)} onChange={(e) => setSpeed(e.target.value === 'max' ? null : Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s.label} value={s.value === null ? 'max' : String(s.value)}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field" title={backend === 'indexeddb' ? 'IndexedDB state runs as memory state until the durable runtime lands' : 'Where keyed state lives'}>
        <span>State</span>
        <select className="input input-small" value={backend} onChange={(e) => dispatch(updateSettings, { stateBackend: e.target.value as 'memory' | 'indexeddb' })}>
          <option value="memory">memory</option>
          <option value="indexeddb">IndexedDB</option>
        </select>
      </label>
      <label className="inline-field" title="Checkpoints are taken in the worker at this wall-clock interval; Kill a subtask restores the latest">
        <span>Checkpoint</span>
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
              {c.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
