import { useEffect, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from './runStore.ts';
import { killSubtask } from './runController.ts';
import { liveSubtasks } from './liveSubtasks.ts';

/** "Kill a subtask…": a small menu with a picker of live subtasks `node#i` and a Kill button. */
export function KillSubtaskPicker({ disabled }: { disabled: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const frame = useStore(runStore, (s) => s.frame);
  const doc = useStore(editorStore, (s) => s.doc);
  const options = liveSubtasks(frame, doc);
  const [picked, setPicked] = useState('');
  const target = options.includes(picked) ? picked : (options[0] ?? '');
  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);
  return (
    <span className="run-kill">
      <button type="button" className="btn btn-danger" aria-expanded={open} disabled={disabled} onClick={() => setOpen((o) => !o)} title={t('run.killTitle')}>
        {t('run.kill')}
      </button>
      {open && (
        <span className="run-kill-menu" role="group" aria-label={t('run.kill')}>
          <label className="inline-field">
            <span>{t('run.killPick')}</span>
            <select className="input input-small mono" value={target} onChange={(e) => setPicked(e.target.value)}>
              {options.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-danger btn-small"
            disabled={!target}
            onClick={() => {
              killSubtask(target);
              setOpen(false);
            }}
          >
            {t('run.killConfirm')}
          </button>
        </span>
      )}
    </span>
  );
}
