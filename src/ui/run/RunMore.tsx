import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n.ts';

/**
 * "More ▾" at the end of the run toolbar: holds the toolbar's less frequent actions when the canvas
 * column is too narrow for them in the row (CSS shows either this or the inline copies, never both).
 */
export function RunMore({ children }: { children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', key);
    };
  }, [open]);
  return (
    <span className="run-more" ref={box}>
      <button type="button" className="btn" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)} title={t('run.moreTitle')}>
        {t('header.more')} ▾
      </button>
      {open && (
        <span className="run-more-pop" role="group" aria-label={t('header.more')}>
          {children}
        </span>
      )}
    </span>
  );
}
