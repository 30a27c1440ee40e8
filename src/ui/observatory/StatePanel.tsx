import { useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { editorStore } from '../store/editorStore.ts';

const EMPTY: string[] = [];
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { currentFrame } from './frameSelectors.ts';
import { observeStore, setObserve } from './observeStore.ts';
import { SizeHeader } from './SizeHeader.tsx';
import { StateTable } from './StateTable.tsx';
import { useFocusNode } from './observeSync.ts';
import { PanelHint } from './PanelHint.tsx';

/** Live keyed state of the selected operator: sizes, search, pinned keys and the virtual table. */
export function StatePanel() {
  const t = useT();
  const node = useFocusNode('state');
  const table = useStore(runStore, (s) => currentFrame(s)?.state ?? null);
  const live = useStore(runStore, (s) => currentFrame(s) !== null);
  const search = useStore(observeStore, (r) => r.search);
  const pinned = useStore(observeStore, (r) => r.pinned.length);
  const [raw, setRaw] = useState(false);
  // The node's declared output columns and its key, from the last validation.
  const out = useStore(validationStore, (v) => (node ? v.streams[node]?.outputs.out : undefined));
  const keyFields = useStore(editorStore, (s) => (s.doc.nodes.find((n) => n.id === node)?.params as { groupBy?: string[] } | undefined)?.groupBy ?? EMPTY);
  if (!node) return <PanelHint text={t('observatory.hint.selectStateful')} />;
  return (
    <div className="obs-panel">
      <div className="obs-bar">
        <SizeHeader node={node} />
        <span className="spacer" />
        <button type="button" className="btn btn-small btn-ghost" aria-pressed={raw} onClick={() => setRaw(!raw)} title={t('observatory.state.rawTitle')}>
          {t('observatory.state.raw')}
        </button>
        <input className="input input-small obs-search" type="search" aria-label={t('observatory.state.search')} placeholder={t('observatory.state.search')} value={search} onChange={(e) => setObserve({ search: e.target.value, stateOffset: 0 })} />
        {pinned > 0 && (
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setObserve({ pinned: [] })}>
            {t('observatory.state.unpinAll', { n: pinned })}
          </button>
        )}
      </div>
      {table && table.node === node ? <StateTable table={table} declared={out?.fields ? Object.keys(out.fields) : null} types={out?.fields ?? null} keyFields={keyFields} raw={raw} /> : <PanelHint text={t(live ? 'observatory.hint.noState' : 'observatory.hint.run', { node })} />}
    </div>
  );
}
