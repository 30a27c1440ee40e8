import { useDismiss } from '../shell/useDismiss.ts';
import { useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n.ts';

/**
 * "More ▾" at the end of the run toolbar: holds the toolbar's less frequent actions when the canvas
 * column is too narrow for them in the row (CSS shows either this or the inline copies, never both).
 */
export function RunMore({ children }: { children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  useDismiss(open, () => setOpen(false), box);
  return (
    <span className="run-more" ref={box}>
      <button type="button" className="btn" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)} title={t('run.moreTitle')}>
        <span className="run-more-label">{t('header.more')}</span>
        <span className="run-more-dots" aria-hidden>
          ⋯
        </span>{' '}
        ▾
      </button>
      {open && (
        <span className="run-more-pop" role="group" aria-label={t('header.more')}>
          {children}
        </span>
      )}
    </span>
  );
}
