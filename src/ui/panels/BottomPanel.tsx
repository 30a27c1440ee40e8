import { useEffect, useRef } from 'react';
import { useStore } from '../store/createStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import { layoutStore } from '../store/layoutStore.ts';
import type { BottomTab } from '../store/uiStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { langStore, useT } from '../i18n/i18n.ts';
import { alignedScroll, cutTabs } from './tabStrip.ts';
import { ProblemsList } from './ProblemsList.tsx';
import { ResultsPanel } from './ResultsPanel.tsx';
import { LogPanel } from './LogPanel.tsx';
import { RunSettings } from '../run/RunSettings.tsx';
import { StatePanel } from '../observatory/StatePanel.tsx';
import { JoinPanel } from '../observatory/JoinPanel.tsx';
import { WindowsPanel } from '../observatory/WindowsPanel.tsx';
import { CheckpointsPanel } from '../observatory/CheckpointsPanel.tsx';
import { TracePanel } from '../observatory/TracePanel.tsx';
import { MetricsPanel } from '../observatory/MetricsPanel.tsx';
import { QueryPanel } from '../observatory/QueryPanel.tsx';
import { TestsPanel } from '../tests/TestsPanel.tsx';
import { NODE_TABS, useObserveSync } from '../observatory/observeSync.ts';
import { PanelHint } from '../observatory/PanelHint.tsx';

/** Views that read operators in the engine worker's own thread: a run on Web Workers has none to read. */
const IN_PROCESS_ONLY: ReadonlySet<BottomTab> = new Set(['state', 'join', 'windows', 'trace', 'query', 'metrics']);

const BODIES: Record<BottomTab, () => React.JSX.Element> = {
  problems: ProblemsList,
  results: ResultsPanel,
  log: LogPanel,
  state: StatePanel,
  join: JoinPanel,
  windows: WindowsPanel,
  checkpoints: CheckpointsPanel,
  metrics: MetricsPanel,
  trace: TracePanel,
  query: QueryPanel,
  tests: TestsPanel,
};

export function BottomPanel() {
  const t = useT();
  const chosen = useStore(uiStore, (s) => s.bottomTab);
  const open = useStore(uiStore, (s) => s.bottomOpen);
  const problemCount = useStore(validationStore, (v) => v.problems.length + v.typeProblems.length);
  const logIssues = useStore(runStore, (s) => s.log.filter((l) => l.level !== 'info').length);
  // Every tab is always there, in one order: node tabs show the selected node, or the first that fits.
  const tab: BottomTab = chosen;
  useObserveSync(tab, open);
  const tabs: { id: BottomTab; label: string; badge?: number; tone?: string }[] = [
    { id: 'problems', label: t('observatory.tab.problems'), badge: problemCount, tone: 'error' },
    { id: 'results', label: t('observatory.tab.results') },
    { id: 'log', label: t('observatory.tab.log'), badge: logIssues, tone: 'warn' },
    ...NODE_TABS.map((id) => ({ id, label: t(`observatory.tab.${id}`) })),
    { id: 'checkpoints', label: t('observatory.tab.checkpoints') },
    { id: 'metrics', label: t('metrics.tab') },
    { id: 'trace', label: t('observatory.tab.trace') },
    { id: 'query', label: t('observatory.tab.query') },
    { id: 'tests', label: t('tests.tab') },
  ];
  const threads = useStore(runStore, (s) => (s.snapshot?.runsOn === 'workers' ? (s.snapshot.threads ?? 0) : null));
  const Body = BODIES[tab];
  // The strip scrolls sideways when the tabs do not fit; the chosen tab is always in sight, and a tab
  // the strip's edge would cut is hidden rather than shown as a fragment of its label.
  const strip = useRef<HTMLDivElement>(null);
  const lang = useStore(langStore, (l) => l);
  const presenting = useStore(layoutStore, (l) => l.presentation);
  useEffect(() => {
    const row = strip.current;
    if (!row) return;
    const spans = () => {
      const shown = [...row.querySelectorAll<HTMLElement>('[role="tab"]')].filter((e) => e.offsetParent !== null);
      return { shown, tabs: shown.map((e) => ({ start: e.offsetLeft, end: e.offsetLeft + e.offsetWidth })) };
    };
    const markCut = () => {
      const { shown, tabs } = spans();
      const cut = new Set(cutTabs(tabs, row.scrollLeft, row.clientWidth));
      shown.forEach((e, i) => e.toggleAttribute('data-cut', cut.has(i)));
    };
    const { shown, tabs } = spans();
    const chosen = shown.findIndex((e) => e.getAttribute('aria-selected') === 'true');
    if (chosen >= 0) row.scrollLeft = alignedScroll(tabs, chosen, row.scrollLeft, row.clientWidth);
    markCut();
    row.addEventListener('scroll', markCut, { passive: true });
    const observer = new ResizeObserver(markCut);
    observer.observe(row);
    return () => {
      row.removeEventListener('scroll', markCut);
      observer.disconnect();
    };
  }, [tab, lang, presenting]);
  return (
    <section className={`bottom-panel${open ? '' : ' collapsed'}`} aria-label={t('observatory.panel.label')}>
      <div className="tabs">
        <div className="tab-strip" role="tablist" aria-label={t('observatory.panel.tabs')} ref={strip}>
          {tabs.map((x) => (
            <button
              key={x.id}
              type="button"
              role="tab"
              id={`tab-${x.id}`}
              aria-selected={tab === x.id}
              aria-controls="bottom-panel"
              className={`tab${tab === x.id ? ' on' : ''}${NODE_TABS.includes(x.id) ? ' tab-node' : ''}`}
              onClick={() => setUi({ bottomTab: x.id, bottomOpen: true })}
            >
              {x.label}
              {x.badge ? ' ' : null}
              {x.badge ? <span className={`count count-${x.tone}`}>{x.badge}</span> : null}
            </button>
          ))}
        </div>
        <RunSettings />
        <button type="button" className="btn-icon" aria-label={t(open ? 'observatory.panel.collapse' : 'observatory.panel.expand')} onClick={() => setUi({ bottomOpen: !open })}>
          {open ? '▾' : '▴'}
        </button>
      </div>
      {open && (
        <div className="bottom-body" role="tabpanel" id="bottom-panel" aria-labelledby={`tab-${tab}`}>
          {threads !== null && IN_PROCESS_ONLY.has(tab) ? <PanelHint text={t('observatory.hint.onWorkers', { n: threads })} /> : <Body />}
        </div>
      )}
    </section>
  );
}
