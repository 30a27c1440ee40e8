import type { StateDiff } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtKey, fmtScalar } from './format.ts';
import { diffPaths } from './diffPaths.ts';

const brief = (v: unknown): string => {
  if (v === undefined) return '∅';
  const s = typeof v === 'object' && v !== null ? JSON.stringify(v) : fmtScalar(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
};

/** Keys added, removed and changed per operator between two checkpoints. */
export function DiffView({ diff, onClose }: { diff: StateDiff; onClose(): void }) {
  const t = useT();
  const empty = diff.operators.every((o) => !o.added.length && !o.removed.length && !o.changed.length);
  return (
    <section className="obs-diff" aria-label={t('observatory.diff.title', { from: diff.from, to: diff.to })}>
      <div className="obs-bar">
        <h4 className="obs-h">{t('observatory.diff.title', { from: diff.from, to: diff.to })}</h4>
        <span className="spacer" />
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      {empty && <div className="muted obs-pad">{t('observatory.diff.none')}</div>}
      {diff.operators.map((o) => (
        <div key={o.node} className="obs-diff-op">
          <div className="obs-diff-head">
            <strong>{o.node}</strong>
            <span className="obs-diff-added">{t('observatory.diff.added', { n: o.added.length })}</span>
            <span className="obs-diff-removed">{t('observatory.diff.removed', { n: o.removed.length })}</span>
            <span className="obs-diff-changed">{t('observatory.diff.changed', { n: o.changed.length })}</span>
          </div>
          <ul className="obs-diff-list mono">
            {o.added.slice(0, 20).map((r) => (
              <li key={`a${r.keyText}`} className="obs-diff-added">
                + {fmtKey(r.key)} {brief(r.states)}
              </li>
            ))}
            {o.removed.slice(0, 20).map((r) => (
              <li key={`r${r.keyText}`} className="obs-diff-removed">
                − {fmtKey(r.key)} {brief(r.states)}
              </li>
            ))}
            {o.changed.slice(0, 40).map((c, i) => (
              <li key={`c${i}`} className="obs-diff-changed" data-key={fmtKey(c.key)} data-before={JSON.stringify(c.before)} title={`${JSON.stringify(c.before)}\n→ ${JSON.stringify(c.after)}`}>
                ~ <strong>{fmtKey(c.key)}</strong>{' '}
                {diffPaths(c.before, c.after).map((d) => (
                  <span key={d.path} className="obs-diff-path">
                    {d.path}: {brief(d.before)} → {brief(d.after)}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
