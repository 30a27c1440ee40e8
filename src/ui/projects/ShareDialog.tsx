import { useMemo } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { shareUrl } from './share.ts';

/** The document packed into a link; nothing leaves the browser until the link is sent. */
export function ShareDialog() {
  const doc = useStore(editorStore, (s) => s.doc);
  const url = useMemo(() => shareUrl(doc), [doc]);
  return (
    <Dialog title="Share by link">
      <p className="muted">The whole pipeline is compressed into this link. Whoever opens it sees this pipeline; any code in it asks for trust before it runs.</p>
      <label className="field-label" htmlFor="share-link">
        Share link
      </label>
      <textarea id="share-link" className="input mono" readOnly rows={4} value={url} onFocus={(e) => e.currentTarget.select()} />
      <div className="dialog-actions">
        <span className="muted small">{url.length.toLocaleString()} characters</span>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(url)
              .then(() => toast('Link copied'))
              .catch(() => toast('Copy failed: select the link and copy it'))
          }
        >
          Copy link
        </button>
      </div>
    </Dialog>
  );
}
