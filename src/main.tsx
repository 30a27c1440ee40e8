import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { startValidation } from './ui/validation/validationStore.ts';
import { startAutosave } from './ui/projects/autosave.ts';
import { followSystemTheme } from './ui/store/uiStore.ts';
import { boot, openFromHash } from './ui/boot.ts';
import { editorStore } from './ui/store/editorStore.ts';
import './ui/styles/theme.css';
import './ui/styles/app.css';
import './ui/styles/canvas.css';
import './ui/styles/panels.css';
import './ui/styles/observatory.css';

startValidation();
startAutosave();
followSystemTheme();
window.addEventListener('hashchange', () => void openFromHash());
// Read-only hook for e2e tests and the console: the live document, as a copy.
(window as unknown as { __weir: object }).__weir = { doc: () => structuredClone(editorStore.get().doc) };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void boot();
