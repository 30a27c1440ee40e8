import type { PipelineNode } from '../../pipeline/document.ts';
import { dispatch } from '../actions/registry.ts';
import { setNodeLabel, setNodeParallelism } from '../actions/nodeActions.ts';
import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';
import { engine } from '../run/engineClient.ts';
import { useT } from '../i18n/i18n.ts';
import { setUi } from '../store/uiStore.ts';
import { SqlSpanTag } from '../canvas/SqlSpanTag.tsx';

/** Id, label, parallelism and the fault-injection button of one operator. */
export function NodeIdentity({ node }: { node: PipelineNode }) {
  const t = useT();
  const live = useStore(runStore, (s) => s.snapshot?.status === 'running' || s.snapshot?.status === 'paused');
  return (
    <div className="identity">
      <div className="field">
        <label className="field-label" htmlFor="node-id">
          {t('inspector.id')}
        </label>
        <input id="node-id" className="input mono" value={node.id} readOnly />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="node-label">
          {t('inspector.label')}
        </label>
        <input id="node-label" className="input" value={node.label ?? ''} placeholder={node.id} onChange={(e) => dispatch(setNodeLabel, { id: node.id, label: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="node-parallelism">
          {t('inspector.parallelism')}
        </label>
        <input
          id="node-parallelism"
          className="input"
          type="number"
          min={1}
          max={8}
          value={node.parallelism ?? ''}
          placeholder={t('inspector.default')}
          title={t('inspector.parallelismHelp')}
          onChange={(e) => dispatch(setNodeParallelism, { id: node.id, parallelism: e.target.value === '' ? undefined : Number(e.target.value) })}
        />
      </div>
      {node.origin && (
        <div className="field">
          <span className="field-label">{t('inspector.sqlOrigin')}</span>
          <div>
            <SqlSpanTag span={node.origin.sql} />{' '}
            <button type="button" className="btn btn-small" onClick={() => setUi({ centerTab: 'sql' })}>
              {t('inspector.showSql')}
            </button>
          </div>
        </div>
      )}
      {live && (
        <button type="button" className="btn btn-danger btn-small" onClick={() => void engine().killSubtask(node.id)} title={t('inspector.killTitle')}>
          {t('inspector.kill')}
        </button>
      )}
    </div>
  );
}
