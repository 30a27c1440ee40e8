import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, toggleTheme, uiStore } from '../store/uiStore.ts';
import { layoutStore, setLayout } from '../store/layoutStore.ts';
import { HeaderActions } from './HeaderActions.tsx';
import { LANGS, langStore, setLang, useT, type Lang } from '../i18n/i18n.ts';

function Logo() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden className="logo">
      <path d="M2 8h6l3 4 3-4h8" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M2 16h20" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" opacity=".45" />
    </svg>
  );
}

/** English / 繁體中文; each option is written in its own language so anyone can find theirs. */
function LanguageSwitch() {
  const t = useT();
  const lang = useStore(langStore, (l) => l);
  return (
    <select className="input header-lang" style={{ width: 'auto', flex: 'none' }} aria-label={t('common.language')} title={t('common.language')} value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
      {LANGS.map((l) => (
        <option key={l.id} value={l.id} lang={l.id}>
          {l.label}
        </option>
      ))}
    </select>
  );
}

export function Header() {
  const t = useT();
  const name = useStore(editorStore, (s) => s.doc.name);
  const theme = useStore(uiStore, (s) => s.theme);
  const presentation = useStore(layoutStore, (l) => l.presentation);
  return (
    <header className="header">
      <div className="brand">
        <Logo />
        <span className="brand-name">Weir</span>
      </div>
      <span className="header-sep" aria-hidden />
      <span className="doc-name" title={name}>
        {name}
      </span>
      <HeaderActions />
      <button type="button" className="btn btn-ghost header-present" aria-pressed={presentation} onClick={() => setLayout({ presentation: !presentation })} title={t('header.presentTitle')}>
        {t(presentation ? 'header.exitPresent' : 'header.present')}
      </button>
      <LanguageSwitch />
      <button type="button" className="btn-icon btn-round" onClick={toggleTheme} aria-label={theme === 'dark' ? t('header.toLight') : t('header.toDark')} title={t('header.toggleTheme')}>
        {theme === 'dark' ? '☀' : '☾'}
      </button>
      <button type="button" className="btn-icon btn-round" onClick={() => setUi({ dialog: 'help' })} aria-label={t('header.help')} title={t('header.helpTitle')}>
        ?
      </button>
    </header>
  );
}
