import { Dialog } from './Dialog.tsx';
import { SHORTCUTS } from '../canvas/shortcuts.ts';
import { useT } from '../i18n/i18n.ts';

export function HelpOverlay() {
  const t = useT();
  return (
    <Dialog title={t('shell.shortcuts')} wide>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td>
                {(s.keysKey ? t(s.keysKey) : (s.keys ?? '')).split(' / ').map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' / '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{t(s.what)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">{t('shell.shortcutsMac')}</p>
    </Dialog>
  );
}
