import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, toggleTheme, uiStore } from '../store/uiStore.ts';
import { downloadDocument, pickFile } from '../projects/fileIO.ts';

function Logo() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden className="logo">
      <path d="M2 8h6l3 4 3-4h8" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M2 16h20" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" opacity=".45" />
    </svg>
  );
}

export function Header() {
  const name = useStore(editorStore, (s) => s.doc.name);
  const theme = useStore(uiStore, (s) => s.theme);
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
      <nav className="header-actions" aria-label="Project">
        <button type="button" className="btn btn-ghost" onClick={() => setUi({ dialog: 'gallery' })}>
          Examples
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setUi({ dialog: 'projects' })}>
          Projects
        </button>
        <button type="button" className="btn btn-ghost" onClick={pickFile}>
          Open file
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => downloadDocument(editorStore.get().doc)}>
          Download
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setUi({ dialog: 'share' })}>
          Share link
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setUi({ dialog: 'flinkSql' })}>
          Flink SQL
        </button>
      </nav>
      <span className="spacer" />
      <button type="button" className="btn-icon btn-round" onClick={toggleTheme} aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'} title="Toggle theme">
        {theme === 'dark' ? '☀' : '☾'}
      </button>
      <button type="button" className="btn-icon btn-round" onClick={() => setUi({ dialog: 'help' })} aria-label="Help and shortcuts" title="Shortcuts (?)">
        ?
      </button>
    </header>
  );
}
