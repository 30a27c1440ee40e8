import { Dialog } from './Dialog.tsx';
import { SHORTCUTS } from '../canvas/shortcuts.ts';

export function HelpOverlay() {
  return (
    <Dialog title="Keyboard shortcuts" wide>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                {s.keys.split(' / ').map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' / '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">On macOS, Cmd works wherever Ctrl is listed. Keys typed into a field or code editor stay in that field.</p>
    </Dialog>
  );
}
