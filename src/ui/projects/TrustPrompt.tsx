import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { udfSites } from '../../pipeline/udfSites.ts';
import { trustAndRun } from '../run/runController.ts';
import { useT } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';

/** Before code from a file or link runs: what code, where it came from, and a real choice. */
export function TrustPrompt() {
  const doc = useStore(editorStore, (s) => s.doc);
  const origin = useStore(editorStore, (s) => s.origin);
  const sites = udfSites(doc);
  const t = useT();
  return (
    <Dialog title={t('projects.trust.title')}>
      <p>
        {plural(t, origin === 'link' ? 'projects.trust.fromLink' : 'projects.trust.fromFile', sites.length)} {t('projects.trust.body')}
      </p>
      <ul className="trust-sites">
        {sites.map((s) => (
          <li key={`${s.nodeId}.${s.param}`}>
            <span className="mono">
              {s.nodeId}.{s.param}
            </span>
            <pre>{s.code.length > 300 ? `${s.code.slice(0, 300)}…` : s.code}</pre>
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => setUi({ dialog: null })} data-autofocus>
          {t('projects.trust.no')}
        </button>
        <button type="button" className="btn btn-primary" onClick={trustAndRun}>
          {t('projects.trust.yes')}
        </button>
      </div>
    </Dialog>
  );
}
