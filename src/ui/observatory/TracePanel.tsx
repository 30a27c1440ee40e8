import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import type { RunState } from '../run/runStore.ts';
import type { LogLine } from '../../worker/protocol.ts';
import type { Row } from '../../core/types.ts';
import { currentFrame } from './frameSelectors.ts';
import { fmtRow } from './format.ts';
import { BreakpointList } from './BreakpointList.tsx';
import { PanelHint } from './PanelHint.tsx';
import { TraceList } from './TraceList.tsx';
import { useHeldWhileRunning } from './heldWhileRunning.ts';

/** While running, the trace list refreshes at most this often (see heldWhileRunning.ts). */
const TRACE_REFRESH_MS = 250;

/**
 * The engine hands a breakpoint hit to the session once, so frames may never carry it; the session
 * logs it as the last line before pausing. While paused on that line, it is the hit to show.
 */
const hitFromLog = (s: RunState): LogLine | null => {
  if (s.snapshot?.status !== 'paused') return null;
  const last = s.log[s.log.length - 1];
  return last && last.level === 'warn' && last.node && last.message.startsWith('breakpoint hit') ? last : null;
};

const parseRow = (text: string | undefined): Row => {
  try {
    const v = text ? (JSON.parse(text) as unknown) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : {};
  } catch {
    return {};
  }
};

/** The last records through the graph, hop by hop, next to the breakpoints (stepping is the run toolbar's). */
export function TracePanel() {
  const t = useT();
  const trace = useStore(runStore, (s) => currentFrame(s)?.trace ?? null);
  const frameHit = useStore(runStore, (s) => currentFrame(s)?.breakpointHit ?? null);
  const logHit = useStore(runStore, hitFromLog);
  const running = useStore(runStore, (s) => s.snapshot?.status === 'running');
  const shown = useHeldWhileRunning(trace, running, TRACE_REFRESH_MS);
  const hit = frameHit ?? (logHit ? { node: logHit.node ?? '', row: parseRow(logHit.record) } : null);
  return (
    <div className="obs-panel obs-trace-panel">
      <div className="obs-trace-main">
        <div className="obs-bar">
          <span className="spacer" />
          {hit && (
            <span className="obs-hit" role="status">
              {t('observatory.bp.hit', { node: hit.node })} <span className="mono">{fmtRow(hit.row, 60)}</span>
            </span>
          )}
        </div>
        {!shown ? (
          <PanelHint text={t('observatory.hint.runTrace')} />
        ) : shown.length === 0 ? (
          <PanelHint text={t('observatory.hint.noTrace')} />
        ) : (
          <TraceList trace={shown} />
        )}
      </div>
      <BreakpointList />
    </div>
  );
}
