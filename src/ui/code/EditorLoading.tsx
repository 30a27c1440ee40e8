import { useT } from '../i18n/i18n.ts';

/** Over an editor's box while Monaco loads (a few seconds on a cold start), so it never sits blank. */
export function EditorLoading() {
  const t = useT();
  return (
    <div className="editor-loading" role="status">
      <span className="editor-loading-spinner" aria-hidden />
      {t('shell.loadingEditor')}
    </div>
  );
}
