import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { udfSites } from '../code/udfSites.ts';
import { trustAndRun } from '../run/runController.ts';

/** Before code from a file or link runs: what code, where it came from, and a real choice. */
export function TrustPrompt() {
  const doc = useStore(editorStore, (s) => s.doc);
  const origin = useStore(editorStore, (s) => s.origin);
  const sites = udfSites(doc);
  return (
    <Dialog title="Run code from this pipeline?">
      <p>
        This pipeline arrived by {origin === 'link' ? 'a shared link' : 'an imported file'} and contains code in {sites.length} place{sites.length === 1 ? '' : 's'}. Code runs in the engine worker, never on this page, but it can still use your CPU and network. Run it only if you trust where it came from.
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
          Don’t run
        </button>
        <button type="button" className="btn btn-primary" onClick={trustAndRun}>
          Trust and run
        </button>
      </div>
    </Dialog>
  );
}
