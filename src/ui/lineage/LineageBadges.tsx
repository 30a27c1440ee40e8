import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { lineageStore } from './lineageStore.ts';
import { stepLabel } from './lineageText.ts';
import { refKey } from '../../pipeline/lineage/columnLineage.ts';
import './lineage.css';

const SHOWN = 4;

/** `lineage-root`, `lineage-on` or `lineage-off` while a column's lineage is shown, so the canvas can dim what it does not pass through. */
export function useNodeLineageClass(id: string): string {
  return useStore(lineageStore, (s) => (!s.trace ? '' : s.byNode.get(id)?.root ? ' lineage-on lineage-root' : s.byNode.has(id) ? ' lineage-on' : ' lineage-off'));
}

export function useEdgeLineageClass(id: string): string {
  return useStore(lineageStore, (s) => (!s.trace ? '' : s.trace.edges.has(id) ? ' lineage-on' : ' lineage-off'));
}

/** The expressions that made the traced columns at this node: "total = SUM(amount)". */
export function LineageBadges({ id }: { id: string }) {
  const t = useT();
  const here = useStore(lineageStore, (s) => s.byNode.get(id));
  const selected = useStore(lineageStore, (s) => s.selected);
  if (!here) return null;
  const rootKey = selected ? refKey(selected) : '';
  const lines = here.steps.map((s) => ({ key: refKey(s.ref), text: stepLabel(s, t), root: refKey(s.ref) === rootKey }));
  return (
    <div className="op-lineage" role="note" aria-label={t('lineage.badge', { node: id })} data-testid={`lineage-${id}`}>
      {lines.slice(0, SHOWN).map((l) => (
        <div key={l.key} className={`op-lineage-step mono${l.root ? ' op-lineage-root' : ''}`} title={l.text}>
          {l.text}
        </div>
      ))}
      {lines.length > SHOWN && (
        <div className="op-lineage-more" title={lines.slice(SHOWN).map((l) => l.text).join('\n')}>
          {t('lineage.more', { n: lines.length - SHOWN })}
        </div>
      )}
    </div>
  );
}
