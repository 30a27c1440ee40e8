import { SourceDataSection } from './SourceDataSection.tsx';
import { FileSourceSection } from './FileSourceSection.tsx';
import { InjectSection } from './InjectSection.tsx';
import { useMemo } from 'react';
import type { PipelineNode } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import { useStore } from '../store/createStore.ts';
import { problemsFor, validationStore } from '../validation/validationStore.ts';
import { dispatch } from '../actions/registry.ts';
import { setNodeParams } from '../actions/nodeActions.ts';
import { ObjectFields } from './fields/ObjectField.tsx';
import type { ProblemMap } from './fields/fieldTypes.ts';
import { StreamSummary } from './StreamSummary.tsx';
import { InlineMarkdown, Markdown } from './InlineMarkdown.tsx';
import { NodeIdentity } from './NodeIdentity.tsx';
import { Section } from './Section.tsx';
import { langStore, useT } from '../i18n/i18n.ts';
import { kindSummary, kindTitle } from '../i18n/kindText.ts';
import { KindIcon } from '../shell/icons.tsx';
import { NodeLoadCharts } from '../observatory/LoadCharts.tsx';
import { loadHistory } from '../run/loadHistory.ts';

function problemMap(problems: Problem[]): ProblemMap {
  const m: ProblemMap = new Map();
  for (const p of problems) m.set(p.field, [...(m.get(p.field) ?? []), p.message]);
  return m;
}

/** The form for one operator, generated from its kind's params schema. */
export function NodeInspector({ node }: { node: PipelineNode }) {
  const spec = kindSpec(node.kind);
  const t = useT();
  const lang = useStore(langStore, (l) => l);
  const problems = useStore(validationStore, (v) => problemsFor(v, node.id));
  const streams = useStore(validationStore, (v) => v.streams[node.id]);
  // TypeScript diagnostics already show in the code editor's own panel.
  const hasLoad = useStore(loadHistory, (h) => h.series[node.id] !== undefined);
  const map = useMemo(() => problemMap(problems.filter((p) => p.code !== 'udf-type-error')), [problems]);
  if (!spec) return <div className="inspector-empty">{t('inspector.unknownKind', { kind: node.kind })}</div>;
  const props = Object.keys((spec.params.properties ?? {}) as object);
  const general = problems.filter((p) => p.code !== 'udf-type-error' && (!p.field.startsWith('params.') || !props.includes(p.field.slice(7).split(/[.[]/)[0])));
  const fieldNames = Object.keys(Object.values(streams?.inputs ?? {})[0]?.fields ?? {});
  const seed = { ...(spec.example as object), ...(spec.defaults as object) } as Record<string, unknown>;
  return (
    <div className="inspector-body" aria-label={t('inspector.of', { name: node.label ?? node.id })}>
      <div className={`inspector-head group-${spec.group}`}>
        <span className="op-icon" aria-hidden>
          <KindIcon kind={spec.kind} size={18} />
        </span>
        <div>
          <h2 className="inspector-title">{node.label ?? node.id}</h2>
          <div className="muted small">
            {kindTitle(spec, t)} · <span className="mono">{node.kind}</span>
            {spec.stateful && <span className="chip chip-small">{t('inspector.stateful')}</span>}
          </div>
        </div>
      </div>
      {general.length > 0 && (
        <div className="inspector-problems" role="group" aria-label={t('inspector.problems')}>
          {general.map((p, i) => (
            <div key={i} className="field-error">
              <span className="mono">{p.field}</span>: {p.message}
            </div>
          ))}
        </div>
      )}
      <NodeIdentity node={node} />
      {/* The file and its types come before the parameters: they are what a person checks first. */}
      <FileSourceSection node={node} />
      {hasLoad && (
        <Section title={t('metrics.section')}>
          <NodeLoadCharts id={node.id} />
        </Section>
      )}
      <Section title={t('inspector.parameters')}>
        <ObjectFields
          name="params"
          schema={spec.params}
          value={node.params}
          path="params"
          problems={map}
          required
          fieldNames={fieldNames}
          nodeId={node.id}
          kind={node.kind}
          seed={seed}
          onChange={(v) => dispatch(setNodeParams, { id: node.id, params: v as Record<string, unknown> })}
        />
        {props.length === 0 && <p className="muted small">{t('inspector.noParams')}</p>}
      </Section>
      <SourceDataSection node={node} />
      <InjectSection node={node} />
      <Section title={t('inspector.streams')}>
        {spec.inputs.map((p) => (
          <StreamSummary key={`in-${p.name}`} dir="in" port={p.name} info={streams?.inputs[p.name]} lineageOf={spec.group === 'sinks' ? node.id : undefined} />
        ))}
        {spec.outputs.map((p) => (
          <StreamSummary key={`out-${p.name}`} dir="out" port={p.name} info={streams?.outputs[p.name]} lineageOf={node.id} />
        ))}
      </Section>
      <Section title={t('inspector.semantics')} defaultOpen={false}>
        <p className="muted small">{kindSummary(spec, t)}</p>
        {lang !== 'en' && <p className="muted small">{t('inspector.semanticsEnglish')}</p>}
        <div className="semantics">
          <Markdown text={spec.semantics} />
        </div>
        <ul className="port-docs">
          {[...spec.inputs.map((p) => ({ ...p, dir: t('inspector.input') })), ...spec.outputs.map((p) => ({ ...p, dir: t('inspector.output') }))].map((p) => (
            <li key={`${p.dir}-${p.name}`}>
              <span className="mono">{p.name}</span> <span className="muted">({p.dir})</span>: <InlineMarkdown text={p.doc} />
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
