import { setUi } from '../store/uiStore.ts';
import { useT } from '../i18n/i18n.ts';

export function EmptyCanvasHint() {
  const t = useT();
  return (
    <div className="empty-hint" role="note">
      <div className="empty-hint-title">{t('canvas.empty.title')}</div>
      <p>{t('canvas.empty.body')}</p>
      <button type="button" className="btn" onClick={() => setUi({ dialog: 'gallery' })}>
        {t('canvas.empty.example')}
      </button>
    </div>
  );
}
