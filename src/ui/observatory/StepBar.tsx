import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { stepPipeline } from './controls.ts';

/** Step one record, one watermark or one barrier; every panel updates after each step. */
export function StepBar() {
  const t = useT();
  const status = useStore(runStore, (s) => s.snapshot?.status ?? 'idle');
  const busy = useStore(runStore, (s) => s.busy);
  // Stepping loads the pipeline first when nothing runs, like the toolbar's Step.
  const can = !busy && status !== 'running';
  return (
    <div className="seg obs-steps" role="group" aria-label={t('observatory.step.group')}>
      <button type="button" disabled={!can} onClick={() => void stepPipeline('record')}>
        {t('observatory.step.record')}
      </button>
      <button type="button" disabled={!can} onClick={() => void stepPipeline('watermark')}>
        {t('observatory.step.watermark')}
      </button>
      <button type="button" disabled={!can} onClick={() => void stepPipeline('barrier')}>
        {t('observatory.step.barrier')}
      </button>
    </div>
  );
}
