import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { setUi } from '../store/uiStore.ts';
import { useT } from '../i18n/i18n.ts';

/** A modal with a title; Escape and the backdrop close it, focus moves into it. */
export function Dialog({ title, children, wide, onClose }: { title: string; children: ReactNode; wide?: boolean; onClose?: () => void }) {
  const id = useId();
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const close = onClose ?? (() => setUi({ dialog: null }));
  useEffect(() => {
    const prev = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus], button, input, select, textarea, [tabindex="0"]');
    first?.focus();
    return () => prev?.focus?.();
  }, []);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div ref={box} className={`dialog${wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={id}>
        <div className="dialog-head">
          <h2 id={id}>{title}</h2>
          <button type="button" className="btn-icon" aria-label={t('common.close')} onClick={close}>
            ×
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
