import { useStore } from '../store/createStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import type { BottomTab } from '../store/uiStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { ProblemsList } from './ProblemsList.tsx';
import { ResultsPanel } from './ResultsPanel.tsx';
import { LogPanel } from './LogPanel.tsx';
import { RunSettings } from '../run/RunSettings.tsx';

export function BottomPanel() {
  const tab = useStore(uiStore, (s) => s.bottomTab);
  const open = useStore(uiStore, (s) => s.bottomOpen);
  const problemCount = useStore(validationStore, (v) => v.problems.length + v.typeProblems.length);
  const logIssues = useStore(runStore, (s) => s.log.filter((l) => l.level !== 'info').length);
  const tabs: { id: BottomTab; label: string; badge?: number; tone?: string }[] = [
    { id: 'problems', label: 'Problems', badge: problemCount, tone: 'error' },
    { id: 'results', label: 'Results' },
    { id: 'log', label: 'Log', badge: logIssues, tone: 'warn' },
  ];
  return (
    <section className={`bottom-panel${open ? '' : ' collapsed'}`} aria-label="Output panels">
      <div className="tabs" role="tablist" aria-label="Output">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="bottom-panel"
            className={`tab${tab === t.id ? ' on' : ''}`}
            onClick={() => setUi({ bottomTab: t.id, bottomOpen: true })}
          >
            {t.label}
            {t.badge ? " " : null}
            {t.badge ? <span className={`count count-${t.tone}`}>{t.badge}</span> : null}
          </button>
        ))}
        <span className="spacer" />
        <RunSettings />
        <button type="button" className="btn-icon" aria-label={open ? 'Collapse panel' : 'Expand panel'} onClick={() => setUi({ bottomOpen: !open })}>
          {open ? '▾' : '▴'}
        </button>
      </div>
      {open && (
        <div className="bottom-body" role="tabpanel" id="bottom-panel" aria-labelledby={`tab-${tab}`}>
          {tab === 'problems' ? <ProblemsList /> : tab === 'results' ? <ResultsPanel /> : <LogPanel />}
        </div>
      )}
    </section>
  );
}
