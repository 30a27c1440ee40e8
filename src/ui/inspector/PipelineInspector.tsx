import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { dispatch } from '../actions/registry.ts';
import { describePipeline, renamePipeline, updateSettings } from '../actions/docActions.ts';
import type { PipelineSettings } from '../../pipeline/document.ts';
import { Section } from './Section.tsx';
import { useT } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';
import { PipelineIcon } from '../shell/icons.tsx';

function NumberSetting({ id, label, value, help, onChange }: { id: keyof PipelineSettings; label: string; value: number | undefined; help: string; onChange(v: number | undefined): void }) {
  const t = useT();
  return (
    <div className="field">
      <label className="field-label" htmlFor={`set-${id}`}>
        {label}
      </label>
      <input id={`set-${id}`} className="input" type="number" value={value ?? ''} placeholder={t('inspector.default')} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />
      <div className="field-help">{help}</div>
    </div>
  );
}

/** With nothing selected: the pipeline's own name, description and settings. */
export function PipelineInspector() {
  // Field by field, so dragging nodes (a new document each step) does not re-render this form.
  const name = useStore(editorStore, (st) => st.doc.name);
  const description = useStore(editorStore, (st) => st.doc.description);
  const nodeCount = useStore(editorStore, (st) => st.doc.nodes.length);
  const edgeCount = useStore(editorStore, (st) => st.doc.edges.length);
  const s = useStore(editorStore, (st) => st.doc.settings) ?? {};
  const t = useT();
  return (
    <div className="inspector-body">
      <div className="inspector-head">
        <span className="op-icon" aria-hidden>
          <PipelineIcon />
        </span>
        <div>
          <h2 className="inspector-title">{t('inspector.pipeline')}</h2>
          <div className="muted small">
            {t('inspector.pipelineCounts', { operators: plural(t, 'inspector.operators', nodeCount), connections: plural(t, 'inspector.connections', edgeCount) })}
          </div>
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="pipeline-name">
          {t('inspector.name')}
        </label>
        <input id="pipeline-name" className="input" value={name} onChange={(e) => dispatch(renamePipeline, e.target.value)} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="pipeline-description">
          {t('inspector.description')}
        </label>
        <textarea
          id="pipeline-description"
          className="input"
          rows={3}
          value={description ?? ''}
          onChange={(e) => dispatch(describePipeline, e.target.value)}
        />
      </div>
      <Section title={t('inspector.settings')}>
        <NumberSetting id="parallelism" label={t('inspector.set.parallelism')} value={s.parallelism} help={t('inspector.set.parallelismHelp')} onChange={(v) => dispatch(updateSettings, { parallelism: v })} />
        <NumberSetting id="seed" label={t('inspector.set.seed')} value={s.seed} help={t('inspector.set.seedHelp')} onChange={(v) => dispatch(updateSettings, { seed: v })} />
        <NumberSetting id="defaultRatePerSec" label={t('inspector.set.rate')} value={s.defaultRatePerSec} help={t('inspector.set.rateHelp')} onChange={(v) => dispatch(updateSettings, { defaultRatePerSec: v })} />
        <NumberSetting id="idleTimeoutMs" label={t('inspector.set.idle')} value={s.idleTimeoutMs} help={t('inspector.set.idleHelp')} onChange={(v) => dispatch(updateSettings, { idleTimeoutMs: v })} />
      </Section>
      <p className="muted small pad-top">{t('inspector.pipelineHint')}</p>
    </div>
  );
}
