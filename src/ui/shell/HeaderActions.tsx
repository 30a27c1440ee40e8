import { useDismiss } from './useDismiss.ts';
import { useLayoutEffect, useRef, useState } from 'react';
import { editorStore } from '../store/editorStore.ts';
import { setUi } from '../store/uiStore.ts';
import { downloadDocument, pickFile } from '../projects/fileIO.ts';
import { useStore } from '../store/createStore.ts';
import { langStore, useT } from '../i18n/i18n.ts';

interface Action {
  key: string;
  label: string;
  run: () => void;
}

/**
 * The project actions. Those that fit the header's width stay as buttons, in order; the rest fold
 * into a "More" menu, so a narrow window neither scrolls nor cuts a button off. Widths come from a
 * hidden ruler holding every button, so a change of language re-measures by itself.
 */
export function HeaderActions() {
  const t = useT();
  const lang = useStore(langStore, (l) => l);
  const actions: Action[] = [
    { key: 'lessons', label: t('header.lessons'), run: () => setUi({ dialog: 'lessons' }) },
    { key: 'examples', label: t('header.examples'), run: () => setUi({ dialog: 'gallery' }) },
    { key: 'projects', label: t('header.projects'), run: () => setUi({ dialog: 'projects' }) },
    { key: 'open', label: t('header.openFile'), run: pickFile },
    { key: 'download', label: t('header.download'), run: () => downloadDocument(editorStore.get().doc) },
    { key: 'share', label: t('header.share'), run: () => setUi({ dialog: 'share' }) },
    { key: 'flinkSql', label: t('header.flinkSql'), run: () => setUi({ dialog: 'flinkSql' }) },
  ];
  const nav = useRef<HTMLElement>(null);
  const ruler = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(actions.length);
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const el = nav.current;
    const r = ruler.current;
    if (!el || !r) return;
    const measure = () => {
      const widths = [...r.children].map((c) => (c as HTMLElement).offsetWidth + 2);
      const more = widths.pop() ?? 0;
      const room = el.clientWidth;
      let used = 0;
      let n = 0;
      for (; n < widths.length; n++) {
        const rest = n + 1 < widths.length ? more : 0;
        if (used + widths[n] + rest > room) break;
        used += widths[n];
      }
      setFit(n);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [lang]);

  useDismiss(open, () => setOpen(false), menu, () => menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus());

  const folded = actions.slice(fit);
  return (
    <nav className="header-actions" ref={nav} aria-label={t('header.project')}>
      <div className="header-ruler" ref={ruler} aria-hidden>
        {actions.map((a) => (
          <span key={a.key} className="btn btn-ghost">
            {a.label}
          </span>
        ))}
        <span className="btn btn-ghost">{t('header.more')} ▾</span>
      </div>
      {actions.slice(0, fit).map((a) => (
        <button key={a.key} type="button" className="btn btn-ghost" onClick={a.run}>
          {a.label}
        </button>
      ))}
      {folded.length > 0 && (
        <div className="header-more" ref={menu}>
          <button type="button" className="btn btn-ghost" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} title={t('header.moreTitle')}>
            {t('header.more')} ▾
          </button>
          {open && (
            <div className="header-menu" role="menu" aria-label={t('header.more')}>
              {folded.map((a) => (
                <button
                  key={a.key}
                  type="button"
                  role="menuitem"
                  className="header-menu-item"
                  onClick={() => {
                    setOpen(false);
                    a.run();
                  }}
                >
                  {a.label}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </nav>
  );
}
