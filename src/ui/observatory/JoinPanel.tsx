import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { currentFrame } from './frameSelectors.ts';
import { fmtRow } from './format.ts';
import { JoinBufferTable } from './JoinBufferTable.tsx';
import { feedFor, isPadded } from './matchFeed.ts';
import { PanelHint } from './PanelHint.tsx';
import { NodeHint } from './NodeHint.tsx';
import { useFocusNode } from './observeSync.ts';

/** Both buffers of the selected join side by side, evictions, and the pairs it just emitted. */
export function JoinPanel() {
  const t = useT();
  const node = useFocusNode('join');
  const join = useStore(runStore, (s) => currentFrame(s)?.join ?? null);
  const live = useStore(runStore, (s) => currentFrame(s) !== null);
  if (!node) return <PanelHint text={t('observatory.hint.selectJoin')} />;
  if (!join || join.node !== node) return <NodeHint text={t(live ? 'observatory.hint.notJoin' : 'observatory.hint.run', { node })} />;
  const interval = join.joinType.includes('interval') || join.left.some((r) => r.range !== null) || join.right.some((r) => r.range !== null);
  const matches = feedFor(join.node).accept(join);
  return (
    <div className="obs-panel">
      <div className="obs-bar">
        <strong>{join.node}</strong>
        <span className="chip">{t('observatory.join.type', { type: join.joinType })}</span>
        <span className="spacer" />
        <span className="obs-evicted" aria-label={t('observatory.join.evicted')}>
          {t('observatory.join.evictedWatermark', { n: join.evicted.watermark })} · {t('observatory.join.evictedTtl', { n: join.evicted.ttl })}
        </span>
      </div>
      <div className="obs-join">
        <JoinBufferTable side="left" rows={join.left} interval={interval} />
        <JoinBufferTable side="right" rows={join.right} interval={interval} />
        <section className="obs-output" aria-label={t('observatory.join.output')}>
          <h4 className="obs-h">{t('observatory.join.output')}</h4>
          {matches.length === 0 && <div className="muted small obs-pad">{t('observatory.join.noOutput')}</div>}
          <ol className="obs-matches">
            {[...matches].reverse().map((m) => (
              <li key={m.id} className={`obs-match kind-${m.kind === '+I' || m.kind === '+U' ? 'add' : 'del'}${isPadded(m) ? ' padded' : ''}`} title={`${m.kind} ${JSON.stringify(m.out)}`}>
                <span className="obs-match-line">
                  <span className="obs-kind mono">{m.kind}</span>
                  {isPadded(m) && <span className="chip chip-small">{t('observatory.join.padded')}</span>}
                  <span className="mono obs-ellipsis">{fmtRow(m.out, 240)}</span>
                </span>
                <span className="obs-pair mono muted obs-ellipsis">
                  {m.left && m.right ? `${fmtRow(m.left, 60)} ⋈ ${fmtRow(m.right, 60)}` : t(m.left ? 'observatory.join.fromLeft' : 'observatory.join.fromRight', { row: fmtRow(m.left ?? m.right, 80) })}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}
