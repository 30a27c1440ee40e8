import { useEffect, useMemo, useState } from 'react';
import { createStore, useStore } from '../store/createStore.ts';
import { dispatch } from '../actions/registry.ts';
import { addNode } from '../actions/nodeActions.ts';
import { kindSpecs } from '../../pipeline/kinds/index.ts';
import { kindTitle } from '../i18n/kindText.ts';
import { useT } from '../i18n/i18n.ts';
import { KindIcon } from '../shell/icons.tsx';
import { canvasBridge, dropPosition } from './canvasBridge.ts';
import { matchKinds } from './quickAddMatch.ts';

/** Type to add: where it opened (screen coordinates) and what was typed first; null while closed. */
export const quickAddStore = createStore<{ x: number; y: number; text: string } | null>(null);

/** Opens the finder at the pointer when it is over the canvas, else at the canvas's centre. */
export function openQuickAdd(text: string): void {
  const pane = canvasBridge.pane?.getBoundingClientRect();
  const p = canvasBridge.pointer;
  const inside = pane && p && p.x >= pane.left && p.x <= pane.right && p.y >= pane.top && p.y <= pane.bottom;
  const at = inside ? p : pane ? { x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 } : { x: 200, y: 200 };
  quickAddStore.set({ ...at, text });
}

/** The type-to-add finder: filters operator kinds as you type; Enter adds the chosen one where the finder opened. */
export function QuickAdd() {
  const open = useStore(quickAddStore, (s) => s);
  if (!open) return null;
  return <QuickAddBox key={`${open.x},${open.y}`} x={open.x} y={open.y} initial={open.text} />;
}

function QuickAddBox({ x, y, initial }: { x: number; y: number; initial: string }) {
  const t = useT();
  const [query, setQuery] = useState(initial);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => matchKinds(kindSpecs, query, (s) => kindTitle(s, t)).slice(0, 8), [query, t]);
  const close = () => quickAddStore.set(null);
  const add = (kind: string) => {
    close();
    dispatch(addNode, { kind, position: dropPosition(x, y) });
  };
  useEffect(() => setActive(0), [query]);
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') setActive((a) => Math.min(matches.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter' && matches[active]) add(matches[active].kind);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const listId = 'quick-add-list';
  return (
    <div className="quick-add" style={{ left: Math.min(x, window.innerWidth - 280), top: Math.min(y, window.innerHeight - 300) }} role="dialog" aria-label={t('canvas.quickAdd.title')}>
      <input
        autoFocus
        className="input"
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={matches[active] ? `quick-add-${matches[active].kind}` : undefined}
        aria-label={t('canvas.quickAdd.label')}
        placeholder={t('canvas.quickAdd.placeholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKey}
        onBlur={close}
      />
      <ul id={listId} role="listbox" aria-label={t('canvas.quickAdd.matches')}>
        {matches.map((s, i) => (
          <li
            key={s.kind}
            id={`quick-add-${s.kind}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'on' : ''}
            onMouseDown={(e) => {
              e.preventDefault();
              add(s.kind);
            }}
            onMouseEnter={() => setActive(i)}
          >
            <KindIcon kind={s.kind} /> <span>{kindTitle(s, t)}</span> <code>{s.kind}</code>
          </li>
        ))}
        {matches.length === 0 && <li className="muted">{t('canvas.quickAdd.none', { q: query })}</li>}
      </ul>
    </div>
  );
}
