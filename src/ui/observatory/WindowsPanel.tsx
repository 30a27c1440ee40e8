import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { currentFrame } from './frameSelectors.ts';
import { fmtKey, fmtRow, fmtTime, watermarkText } from './format.ts';
import { PaneTimeline } from './PaneTimeline.tsx';
import { SourceScatter } from './SourceScatter.tsx';
import { PanelHint } from './PanelHint.tsx';
import { NodeHint } from './NodeHint.tsx';
import { useFocusNode } from './observeSync.ts';
import { useHeldWhileRunning } from './heldWhileRunning.ts';

/** While running, the timeline and the scatter plots redraw at most this often (see heldWhileRunning.ts). */
const WINDOWS_REFRESH_MS = 200;

/** Window panes of the selected window operator, late records, session merges, and per-source time plots. */
export function WindowsPanel() {
  const t = useT();
  const node = useFocusNode('windows');
  const running = useStore(runStore, (s) => s.snapshot?.status === 'running');
  const win = useHeldWhileRunning(useStore(runStore, (s) => currentFrame(s)?.window ?? null), running, WINDOWS_REFRESH_MS);
  const sources = useHeldWhileRunning(useStore(runStore, (s) => currentFrame(s)?.sources ?? null), running, WINDOWS_REFRESH_MS);
  const live = sources !== null;
  const mine = win && win.node === node ? win : null;
  return (
    <div className="obs-panel obs-windows">
      <div className="obs-windows-main">
        {!node ? (
          <PanelHint text={t('observatory.hint.selectWindow')} />
        ) : !mine ? (
          <NodeHint text={t(live ? 'observatory.hint.notWindow' : 'observatory.hint.run', { node })} />
        ) : (
          <>
            <div className="obs-bar">
              <strong>{mine.node}</strong>
              <span className="chip">{mine.windowType}</span>
              <span className="chip">{watermarkText(t, mine)}</span>
              <span className="spacer" />
              <span className={`obs-late-count${mine.lateRecords ? ' has-late' : ''}`}>{t('observatory.windows.lateCount', { n: mine.lateRecords })}</span>
            </div>
            <PaneTimeline win={mine} />
            {mine.recentLate.length > 0 && (
              <div className="obs-late" role="list" aria-label={t('observatory.windows.lateOutput')}>
                <h4 className="obs-h">{t('observatory.windows.lateOutput')}</h4>
                {mine.recentLate.map((r, i) => (
                  <div key={i} role="listitem" className="obs-late-row mono">
                    {fmtRow(r)}
                  </div>
                ))}
              </div>
            )}
            {mine.merges.length > 0 && (
              <div className="obs-merges" role="list" aria-label={t('observatory.windows.merges')}>
                <h4 className="obs-h">{t('observatory.windows.merges')}</h4>
                {mine.merges.slice(-6).map((m, i) => (
                  <div key={i} role="listitem" className="mono small">
                    {fmtKey(m.key)}: {m.from.map(([a, b]) => `[${fmtTime(a)}, ${fmtTime(b)})`).join(' + ')} → [{fmtTime(m.into[0])}, {fmtTime(m.into[1])})
                  </div>
                ))}
              </div>
            )}
          </>
        )}
      </div>
      {sources && sources.length > 0 && (
        <aside className="obs-sources" aria-label={t('observatory.windows.sources')}>
          {sources.map((s) => (
            <SourceScatter key={s.node} series={s} />
          ))}
        </aside>
      )}
    </div>
  );
}
