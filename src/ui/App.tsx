import { lazy, Suspense, useEffect } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { useStore } from './store/createStore.ts';
import { uiStore } from './store/uiStore.ts';
import { Header } from './shell/Header.tsx';
import { EditBar } from './shell/EditBar.tsx';
import { Palette } from './palette/Palette.tsx';
import { Canvas } from './canvas/Canvas.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { BottomPanel } from './panels/BottomPanel.tsx';
import { Dialogs } from './shell/Dialogs.tsx';
import { Toast } from './shell/Toast.tsx';
import { useShortcuts } from './canvas/shortcuts.ts';
import { LessonPanel } from './lessons/LessonPanel.tsx';
import { ResumePrompt } from './run/ResumePrompt.tsx';
import { useT } from './i18n/i18n.ts';

const JsonTab = lazy(() => import('./code/JsonTab.tsx').then((m) => ({ default: m.JsonTab })));

export function App() {
  const theme = useStore(uiStore, (s) => s.theme);
  const tab = useStore(uiStore, (s) => s.centerTab);
  useShortcuts();
  const t = useT();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return (
    <ReactFlowProvider>
      <div className="app">
        <Header />
        <Palette />
        <main className="center-area" aria-label={t('shell.editor')}>
          <EditBar />
          <div className="center-body">
            <Canvas />
            {tab === 'json' && (
              <div className="center-overlay">
                <Suspense fallback={<div className="panel-empty">{t('shell.loadingEditor')}</div>}>
                  <JsonTab />
                </Suspense>
              </div>
            )}
          </div>
        </main>
        <Inspector />
        <BottomPanel />
      </div>
      <LessonPanel />
      <Dialogs />
      <Toast />
      <ResumePrompt />
    </ReactFlowProvider>
  );
}
