import { useMemo } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { shareUrl } from './share.ts';
import { useT } from '../i18n/i18n.ts';

/** The document packed into a link; nothing leaves the browser until the link is sent. */
export function ShareDialog() {
  const doc = useStore(editorStore, (s) => s.doc);
  const url = useMemo(() => shareUrl(doc), [doc]);
  const t = useT();
  return (
    <Dialog title={t('projects.share.title')}>
      <p className="muted">{t('projects.share.note')}</p>
      <label className="field-label" htmlFor="share-link">
        {t('projects.share.link')}
      </label>
      <textarea id="share-link" className="input mono" readOnly rows={4} value={url} onFocus={(e) => e.currentTarget.select()} />
      <div className="dialog-actions">
        <span className="muted small">{t('projects.share.chars', { n: url.length.toLocaleString() })}</span>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(url)
              .then(() => toast(t('projects.share.copied')))
              .catch(() => toast(t('projects.share.copyFailed')))
          }
        >
          {t('projects.share.copy')}
        </button>
      </div>
    </Dialog>
  );
}
