import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { dispatch } from '../actions/registry.ts';
import { describePipeline, renamePipeline, updateSettings } from '../actions/docActions.ts';
import type { PipelineSettings } from '../../pipeline/document.ts';
import { Section } from './Section.tsx';

function NumberSetting({ id, label, value, help, onChange }: { id: keyof PipelineSettings; label: string; value: number | undefined; help: string; onChange(v: number | undefined): void }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={`set-${id}`}>
        {label}
      </label>
      <input id={`set-${id}`} className="input" type="number" value={value ?? ''} placeholder="default" onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />
      <div className="field-help">{help}</div>
    </div>
  );
}

/** With nothing selected: the pipeline's own name, description and settings. */
export function PipelineInspector() {
  const doc = useStore(editorStore, (s) => s.doc);
  const s = doc.settings ?? {};
  return (
    <div className="inspector-body">
      <div className="inspector-head">
        <span className="op-icon" aria-hidden>
          ⌘
        </span>
        <div>
          <h2 className="inspector-title">Pipeline</h2>
          <div className="muted small">
            {doc.nodes.length} operators · {doc.edges.length} connections
          </div>
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="pipeline-name">
          name
        </label>
        <input id="pipeline-name" className="input" value={doc.name} onChange={(e) => dispatch(renamePipeline, e.target.value)} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="pipeline-description">
          description
        </label>
        <textarea
          id="pipeline-description"
          className="input"
          rows={3}
          value={doc.description ?? ''}
          onChange={(e) => dispatch(describePipeline, e.target.value)}
        />
      </div>
      <Section title="Settings">
        <NumberSetting id="parallelism" label="default parallelism" value={s.parallelism} help="Subtasks per operator unless the operator says otherwise (1–8)." onChange={(v) => dispatch(updateSettings, { parallelism: v })} />
        <NumberSetting id="seed" label="seed" value={s.seed} help="Seeds generators and the engine: same seed, same run." onChange={(v) => dispatch(updateSettings, { seed: v })} />
        <NumberSetting id="defaultRatePerSec" label="default source rate (records/s)" value={s.defaultRatePerSec} help="Simulated processing-time pace for sources without a rate." onChange={(v) => dispatch(updateSettings, { defaultRatePerSec: v })} />
        <NumberSetting id="idleTimeoutMs" label="idle timeout (ms)" value={s.idleTimeoutMs} help="A source silent this long stops holding back watermarks." onChange={(v) => dispatch(updateSettings, { idleTimeoutMs: v })} />
      </Section>
      <p className="muted small pad-top">Select an operator to edit it. Press ? for shortcuts.</p>
    </div>
  );
}
