import { useMemo, useState } from 'react';
import { kindSpecs } from '../../pipeline/kinds/index.ts';
import { KIND_GROUPS } from '../../pipeline/kindSpec.ts';
import type { KindSpec } from '../../pipeline/kindSpec.ts';
import { dispatch } from '../actions/registry.ts';
import { addNode } from '../actions/nodeActions.ts';
import { KIND_MIME, viewportCenter } from '../canvas/canvasBridge.ts';
import { setUi } from '../store/uiStore.ts';

let keyboardAdds = 0;

function addAtCenter(kind: string): void {
  setUi({ centerTab: 'canvas' });
  dispatch(addNode, { kind, position: viewportCenter(keyboardAdds++ % 6) });
}

function PaletteItem({ spec }: { spec: KindSpec }) {
  return (
    <div
      className={`palette-item group-${spec.group}`}
      role="button"
      tabIndex={0}
      aria-label={spec.title}
      title={`${spec.summary}\nDrag onto the canvas, or press Enter to add it at the centre.`}
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
        {spec.icon}
      </span>
      <span className="palette-text">
        <span className="palette-title">{spec.title}</span>
        <span className="palette-summary">{spec.summary}</span>
      </span>
    </div>
  );
}

/** Every operator kind from the spec registry, grouped; new kinds appear here with no UI change. */
export function Palette() {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const match = (s: KindSpec) => !q || `${s.title} ${s.kind} ${s.summary}`.toLowerCase().includes(q);
    return KIND_GROUPS.map((g) => ({ ...g, specs: kindSpecs.filter((s) => s.group === g.group && match(s)) })).filter((g) => g.specs.length);
  }, [query]);
  return (
    <nav className="palette" aria-label="Operators">
      <div className="palette-search">
        <input type="search" placeholder="Filter operators" aria-label="Filter operators" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <div className="palette-scroll">
        {groups.map((g) => (
          <section key={g.group} className="palette-group">
            <h3 id={`pg-${g.group}`} className={`palette-group-title group-${g.group}`}>
              {g.title}
            </h3>
            <div role="group" aria-labelledby={`pg-${g.group}`} className="palette-list">
              {g.specs.map((s) => (
                <PaletteItem key={s.kind} spec={s} />
              ))}
            </div>
          </section>
        ))}
        {groups.length === 0 && <p className="muted pad">No operator matches “{query}”.</p>}
      </div>
    </nav>
  );
}
