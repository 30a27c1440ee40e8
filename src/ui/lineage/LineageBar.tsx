import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { clearLineage, lineageStore } from './lineageStore.ts';
import { columnName } from './lineageText.ts';
import { fitNodes } from '../canvas/canvasBridge.ts';
import './lineage.css';

/** Says whose lineage the canvas shows and ends it; Esc does the same. */
export function LineageBar() {
  const t = useT();
  const s = useStore(lineageStore, (x) => x);
  if (!s.selected || !s.trace) return null;
  const up = s.trace.upstream.length - 1;
  const down = s.trace.downstream.length;
  return (
    <div className="lineage-bar" role="status" aria-live="polite" data-testid="lineage-bar">
      <span className="lineage-bar-text">
        <span className="lineage-bar-title" title={columnName(s.selected)}>
          {t('lineage.of', { column: columnName(s.selected) })}
        </span>
        <span className="muted small">{t(`lineage.summary${up && down ? 'Both' : up ? 'Up' : down ? 'Down' : 'Alone'}`, { nodes: s.trace.nodes.size, up, down })}</span>
      </span>
      <button type="button" className="btn btn-small" onClick={() => fitNodes([...s.trace!.nodes])} title={t('lineage.fitHint')}>
        {t('lineage.fit')}
      </button>
      <button type="button" className="btn btn-small" onClick={clearLineage} title={t('lineage.clearHint')} aria-label={t('lineage.clearHint')}>
        {t('lineage.clear')}
      </button>
    </div>
  );
}
