import { memo } from 'react';
import { Handle, Position } from '@xyflow/react';
import type { NodeProps } from '@xyflow/react';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { PortSpec } from '../../pipeline/kindSpec.ts';
import { useStore } from '../store/createStore.ts';
import { problemsFor, validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { handleId } from './connectionRules.ts';
import { paramSummary } from './paramSummary.ts';
import { NodeMetricsLine } from './NodeMetricsLine.tsx';
import { FeedStateLine } from './FeedStateLine.tsx';
import type { OpFlowNode } from './flowTypes.ts';
import { NodeLive } from '../observatory/NodeLive.tsx';
import { useT } from '../i18n/i18n.ts';
import { KindIcon } from '../shell/icons.tsx';
import { kindTitle } from '../i18n/kindText.ts';
import { LineageBadges, useNodeLineageClass } from '../lineage/LineageBadges.tsx';
import { SqlSpanTag } from './SqlSpanTag.tsx';

function Port({ port, dir }: { port: PortSpec; dir: 'in' | 'out' }) {
  const t = useT();
  const tags = [port.keyed && t('observatory.port.keyed'), port.multiple && t('observatory.port.many'), port.broadcast && t('observatory.port.broadcast'), port.optional && t('observatory.port.optional')].filter(Boolean).join(', ');
  return (
    <div className={`op-port op-port-${dir}`} title={`${port.name}${tags ? ` (${tags})` : ''}: ${port.doc}`}>
      <Handle
        type={dir === 'in' ? 'target' : 'source'}
        position={dir === 'in' ? Position.Left : Position.Right}
        id={handleId(dir, port.name)}
        className={`op-handle${port.keyed ? ' op-handle-keyed' : ''}${port.multiple ? ' op-handle-multi' : ''}`}
        aria-label={t(dir === 'in' ? 'observatory.port.input' : 'observatory.port.output', { port: port.name })}
      />
      <span className="op-port-name">{port.name}</span>
      {port.keyed && <span className="op-port-tag">{t('observatory.port.keyTag')}</span>}
    </div>
  );
}

function OpNodeView({ id, data, selected }: NodeProps<OpFlowNode>) {
  const t = useT();
  const { node } = data;
  const spec = kindSpec(node.kind);
  const problems = useStore(validationStore, (v) => problemsFor(v, id));
  const failed = useStore(runStore, (s) => s.snapshot?.error?.node === id);
  const lineage = useNodeLineageClass(id);
  if (!spec) {
    return (
      <div className="op-node op-node-unknown" data-selected={selected || undefined}>
        <div className="op-head">
          <span className="op-icon">?</span>
          <div className="op-titles">
            <div className="op-label">{node.label ?? node.id}</div>
            <div className="op-kind">{t('observatory.node.unknownKind', { kind: node.kind })}</div>
          </div>
        </div>
      </div>
    );
  }
  const summary = paramSummary(spec, node.params);
  const errors = problems.length;
  return (
    <div className={`op-node group-${spec.group}${errors ? ' has-problems' : ''}${failed ? ' has-failed' : ''}${lineage}`} data-selected={selected || undefined} data-testid={`node-${id}`}>
      <div className="op-head">
        <span className="op-icon" aria-hidden>
          <KindIcon kind={spec.kind} />
        </span>
        <div className="op-titles">
          <div className="op-label">{node.label ?? node.id}</div>
          <div className="op-kind">
            {kindTitle(spec, t)}
            {node.label ? <span className="op-id"> · {node.id}</span> : null}
          </div>
          {node.origin && <SqlSpanTag span={node.origin.sql} />}
        </div>
        {errors > 0 && (
          <span className="op-badge op-badge-error" title={problems.map((p) => `${p.field}: ${p.message}`).join('\n')} aria-label={t(errors > 1 ? 'observatory.node.problems' : 'observatory.node.problem', { n: errors })}>
            {errors}
          </span>
        )}
      </div>
      {(spec.inputs.length > 0 || spec.outputs.length > 0) && (
        <div className="op-ports">
          <div className="op-ports-col">
            {spec.inputs.map((p) => (
              <Port key={p.name} port={p} dir="in" />
            ))}
          </div>
          <div className="op-ports-col op-ports-out">
            {spec.outputs.map((p) => (
              <Port key={p.name} port={p} dir="out" />
            ))}
          </div>
        </div>
      )}
      {summary.length > 0 && (
        <div className="op-summary">
          {summary.map((s) => (
            <div key={s}>{s}</div>
          ))}
        </div>
      )}
      {errors > 0 && <div className="op-problem">{problems[0].message}</div>}
      <LineageBadges id={id} />
      <NodeLive id={id} sink={spec.group === 'sinks'} />
      <NodeMetricsLine id={id} />
      {node.kind === 'feedSource' && <FeedStateLine id={id} />}
    </div>
  );
}

/** Memoised: React Flow re-renders a node only when its document node or selection changes. */
export const OpNode = memo(OpNodeView);
