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
import { LIMITS, RAIL, foldToFit, layoutStore, setLayout } from './store/layoutStore.ts';
import { Resizer } from './shell/Resizer.tsx';
import { fitView } from './canvas/canvasBridge.ts';
import { usePasteSql } from './code/pasteSql.ts';


const JsonTab = lazy(() => import('./code/JsonTab.tsx').then((m) => ({ default: m.JsonTab })));
const SqlTab = lazy(() => import('./code/SqlTab.tsx').then((m) => ({ default: m.SqlTab })));

export function App() {
  const theme = useStore(uiStore, (s) => s.theme);
  const tab = useStore(uiStore, (s) => s.centerTab);
  useShortcuts();
  usePasteSql();
  const t = useT();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  const layout = useStore(layoutStore, (l) => l);
  // The canvas changes size with presentation mode and the side panels: show the whole pipeline again.
  useEffect(() => {
    const id = setTimeout(fitView, 60);
    return () => clearTimeout(id);
  }, [layout.presentation, layout.paletteOpen, layout.inspectorOpen]);
  // A window made narrower (a projector, a split screen) folds side panels before it squeezes the canvas.
  useEffect(() => {
    const fit = () => {
      const patch = foldToFit(layoutStore.get(), window.innerWidth);
      if (patch) setLayout(patch);
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  const toggle = (side: 'palette' | 'inspector') => {
    const open = side === 'palette' ? !layout.paletteOpen : !layout.inspectorOpen;
    const next = { ...layoutStore.get(), ...(side === 'palette' ? { paletteOpen: open } : { inspectorOpen: open }) };
    setLayout({ ...next, ...(open ? foldToFit(next, window.innerWidth, side) : null) });
  };
  useEffect(() => {
    if (!layout.presentation) return;
    const exit = (e: KeyboardEvent) => e.key === 'Escape' && setLayout({ presentation: false });
    window.addEventListener('keydown', exit);
    return () => window.removeEventListener('keydown', exit);
  }, [layout.presentation]);
  const side = (open: boolean, w: number) => (layout.presentation ? 0 : open ? w : RAIL);
  const vars = { '--pw': `${side(layout.paletteOpen, layout.paletteWidth)}px`, '--iw': `${side(layout.inspectorOpen, layout.inspectorWidth)}px`, '--bh': `${layout.bottomHeight}px` } as React.CSSProperties;
  return (
    <ReactFlowProvider>
      <div className="app" style={vars} data-presentation={layout.presentation || undefined}>
        <Header />
        <div className="side side-palette">
          {layout.paletteOpen ? (
            <>
              <Palette />
              <Resizer label={t('shell.resizePalette')} axis="x" sign={1} value={layout.paletteWidth} limits={LIMITS.palette} onChange={(v) => setLayout({ paletteWidth: v })} />
            </>
          ) : null}
          <button type="button" className="btn-icon side-toggle" aria-expanded={layout.paletteOpen} aria-label={t(layout.paletteOpen ? 'shell.hidePalette' : 'shell.showPalette')} title={t(layout.paletteOpen ? 'shell.hidePalette' : 'shell.showPalette')} onClick={() => toggle('palette')}>
            {layout.paletteOpen ? '‹' : '›'}
          </button>
        </div>
        <main className="center-area" aria-label={t('shell.editor')}>
          <EditBar />
          <div className="center-body">
            <Canvas />
            {tab !== 'canvas' && (
              <div className="center-overlay">
                <Suspense fallback={<div className="panel-empty">{t('shell.loadingEditor')}</div>}>{tab === 'json' ? <JsonTab /> : <SqlTab />}</Suspense>
              </div>
            )}
          </div>
        </main>
        <div className="side side-inspector">
          {layout.inspectorOpen ? (
            <>
              <Resizer label={t('shell.resizeInspector')} axis="x" sign={-1} value={layout.inspectorWidth} limits={LIMITS.inspector} onChange={(v) => setLayout({ inspectorWidth: v })} />
              <Inspector />
            </>
          ) : null}
          <button type="button" className="btn-icon side-toggle" aria-expanded={layout.inspectorOpen} aria-label={t(layout.inspectorOpen ? 'shell.hideInspector' : 'shell.showInspector')} title={t(layout.inspectorOpen ? 'shell.hideInspector' : 'shell.showInspector')} onClick={() => toggle('inspector')}>
            {layout.inspectorOpen ? '›' : '‹'}
          </button>
        </div>
        <div className="side-bottom">
          <Resizer label={t('shell.resizeBottom')} axis="y" sign={-1} value={layout.bottomHeight} limits={LIMITS.bottom} onChange={(v) => setLayout({ bottomHeight: v })} />
          <BottomPanel />
        </div>
      </div>
      <LessonPanel />
      <Dialogs />
      <Toast />
      <ResumePrompt />
    </ReactFlowProvider>
  );
}
