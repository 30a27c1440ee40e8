import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';
import { breakpointStore, setBreakpoint, syncBreakpoints } from './breakpointStore.ts';

/** Per node: a breakpoint toggle and an optional condition (an expression over the record). */
export function BreakpointList() {
  const t = useT();
  const nodes = useStore(editorStore, (s) => s.doc.nodes);
  const bps = useStore(breakpointStore, (s) => s);
  return (
    <section className="obs-bps" aria-label={t('observatory.bp.title')}>
      <h4 className="obs-h">{t('observatory.bp.title')}</h4>
      <ul>
        {nodes.map((n) => {
          const b = bps.byNode[n.id] ?? { on: false, condition: '' };
          const problem = bps.problems[n.id];
          return (
            <li key={n.id} className={b.on ? 'on' : ''}>
              <label className="obs-bp-toggle">
                <input type="checkbox" checked={b.on} onChange={(e) => (setBreakpoint(n.id, { on: e.target.checked }), void syncBreakpoints())} />
                <span className="mono">{n.label ?? n.id}</span>
              </label>
              <input
                className="input input-small mono"
                aria-label={t('observatory.bp.condition', { node: n.label ?? n.id })}
                placeholder={t('observatory.bp.conditionPlaceholder')}
                value={b.condition}
                aria-invalid={problem ? true : undefined}
                onChange={(e) => setBreakpoint(n.id, { condition: e.target.value })}
                onBlur={() => void syncBreakpoints()}
                onKeyDown={(e) => e.key === 'Enter' && void syncBreakpoints()}
              />
              {problem && <div className="field-error">{problem}</div>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
