import { useStore } from '../store/createStore.ts';
import { uiStore } from '../store/uiStore.ts';

export function Toast() {
  const text = useStore(uiStore, (s) => s.toast);
  return (
    <div className="toast-host" aria-live="polite">
      {text && <div className="toast">{text}</div>}
    </div>
  );
}
