import { memo } from 'react';
import type { NodeObservation } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtBytes, fmtCount } from './format.ts';
import { nodeObservation, sameBy, useFrameSlice } from './frameSelectors.ts';
import { observeStore, setObserve } from './observeStore.ts';
import { useStore } from '../store/createStore.ts';

const signature = (n: NodeObservation | undefined): string => (n ? `${n.keys}|${n.bytes}|${n.subtasks.map((s) => `${s.keys},${s.bytes},${s.alive}`).join(';')}` : '');

/** Keys and bytes of the operator and of each subtask with the key groups it owns; picks the subtask to show. */
function SizeHeaderView({ node }: { node: string }) {
  const t = useT();
  const obs = useFrameSlice((f) => nodeObservation(f, node), sameBy(signature));
  const subtask = useStore(observeStore, (r) => r.subtask);
  if (!obs) return null;
  return (
    <div className="obs-size" aria-label={t('observatory.state.size')}>
      <span className="obs-size-total">
        <strong>{t('observatory.state.keys', { n: fmtCount(obs.keys) })}</strong> · {fmtBytes(obs.bytes)}
      </span>
      <label className="obs-inline-field">
        {t('observatory.state.subtask')}
        <select className="input input-small" value={subtask === null ? '' : String(subtask)} onChange={(e) => setObserve({ subtask: e.target.value === '' ? null : Number(e.target.value), stateOffset: 0 })}>
          <option value="">{t('observatory.state.allSubtasks')}</option>
          {obs.subtasks.map((s) => (
            <option key={s.index} value={s.index}>
              #{s.index}
            </option>
          ))}
        </select>
      </label>
      <span className="obs-subtasks">
        {obs.subtasks.map((s) => (
          <span key={s.index} className={`obs-subtask${subtask === s.index ? ' on' : ''}${s.alive ? '' : ' dead'}`} title={t('observatory.state.keyGroupsTitle', { from: s.keyGroups[0], to: s.keyGroups[1] })}>
            #{s.index}: {t('observatory.state.keys', { n: fmtCount(s.keys) })} · {fmtBytes(s.bytes)} · {t('observatory.state.keyGroups', { from: s.keyGroups[0], to: s.keyGroups[1] })}
          </span>
        ))}
      </span>
    </div>
  );
}

export const SizeHeader = memo(SizeHeaderView);
