import { memo, useMemo, useState } from 'react';
import { kindSpecs } from '../../pipeline/kinds/index.ts';
import { KIND_GROUPS } from '../../pipeline/kindSpec.ts';
import type { KindSpec } from '../../pipeline/kindSpec.ts';
import { dispatch } from '../actions/registry.ts';
import { addNode } from '../actions/nodeActions.ts';
import { KIND_MIME, viewportCenter } from '../canvas/canvasBridge.ts';
import { setUi } from '../store/uiStore.ts';
import { langStore, useT } from '../i18n/i18n.ts';
import { useStore } from '../store/createStore.ts';
import { kindSummary, kindTitle } from '../i18n/kindText.ts';
import { KindIcon } from '../shell/icons.tsx';

let keyboardAdds = 0;

function addAtCenter(kind: string): void {
  setUi({ centerTab: 'canvas' });
  dispatch(addNode, { kind, position: viewportCenter(keyboardAdds++ % 6) });
}

const PaletteItem = memo(function PaletteItem({ spec, title, summary, hint }: { spec: KindSpec; title: string; summary: string; hint: string }) {
  return (
    <div
      className={`palette-item group-${spec.group}`}
      role="button"
      tabIndex={0}
      aria-label={title}
      title={`${summary}\n${hint}`}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.setData(KIND_MIME, spec.kind);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          addAtCenter(spec.kind);
        }
      }}
      onDoubleClick={() => addAtCenter(spec.kind)}
      data-kind={spec.kind}
    >
      <span className="palette-icon" aria-hidden>
        <KindIcon kind={spec.kind} />
      </span>
      <span className="palette-text">
        <span className="palette-title">{title}</span>
        <span className="palette-summary">{summary}</span>
      </span>
    </div>
  );
});

/** Every operator kind from the spec registry, grouped; new kinds appear here with no UI change. */
export function Palette() {
  const t = useT();
  const [query, setQuery] = useState('');
  const lang = useStore(langStore, (l) => l);
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    // Both languages match, so an English search still works in the zh-TW interface.
    const match = (s: KindSpec) => !q || `${s.title} ${s.kind} ${s.summary} ${kindTitle(s, t)} ${kindSummary(s, t)}`.toLowerCase().includes(q);
    return KIND_GROUPS.map((g) => ({ ...g, specs: kindSpecs.filter((s) => s.group === g.group && match(s)) })).filter((g) => g.specs.length);
  }, [query, lang]);
  return (
    <nav className="palette" aria-label={t('palette.operators')}>
      <div className="palette-search">
        <input type="search" placeholder={t('palette.filter')} aria-label={t('palette.filter')} value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <div className="palette-scroll">
        {groups.map((g) => (
          <section key={g.group} className="palette-group">
            <h3 id={`pg-${g.group}`} className={`palette-group-title group-${g.group}`}>
              {t(`palette.group.${g.group}`)}
            </h3>
            <div role="group" aria-labelledby={`pg-${g.group}`} className="palette-list">
              {g.specs.map((s) => (
                <PaletteItem key={s.kind} spec={s} title={kindTitle(s, t)} summary={kindSummary(s, t)} hint={t('palette.dragHint')} />
              ))}
            </div>
          </section>
        ))}
        {groups.length === 0 && <p className="muted pad">{t('palette.noMatch', { query })}</p>}
      </div>
    </nav>
  );
}
