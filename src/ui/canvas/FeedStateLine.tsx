import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';
import { useT } from '../i18n/i18n.ts';
import type { FeedNodeStatus } from '../../runtime/feeds/liveFeeds.ts';
import './feedState.css';

/** Equal while what the line shows is equal, so a snapshot that changes nothing here renders nothing. */
const shown = (f: FeedNodeStatus | undefined): string => (f ? `${f.phase}|${Math.ceil((f.retryInMs ?? 0) / 1000)}|${f.attempt}|${f.reason}|${Math.round(f.ratePerSec)}|${f.dropped}|${f.received}` : '');

/** A live feed's connection state under its node: connecting, live with its rate, reconnecting, or closed and why. */
export function FeedStateLine({ id }: { id: string }) {
  const t = useT();
  useStore(runStore, (s) => shown(s.snapshot?.status !== 'idle' ? s.snapshot?.feeds?.[id] : undefined));
  const snap = runStore.get().snapshot;
  const f = snap && snap.status !== 'idle' ? snap.feeds?.[id] : undefined;
  if (!f) return null;
  const [text, title] =
    f.phase === 'connecting'
      ? [t('feed.state.connecting'), t('feed.state.connectingTitle', { url: f.url })]
      : f.phase === 'live'
        ? [t('feed.state.live', { rate: String(Math.round(f.ratePerSec)) }), t('feed.state.liveTitle', { url: f.url, received: String(f.received), buffered: String(f.buffered) })]
        : f.phase === 'reconnecting'
          ? [t('feed.state.reconnecting', { s: String(Math.ceil((f.retryInMs ?? 0) / 1000)), attempt: String(f.attempt) }), t('feed.state.reconnectingTitle', { reason: f.reason ?? '' })]
          : [t('feed.state.closed', { reason: f.reason ?? '' }), t('feed.state.closedTitle')];
  return (
    <div className={`op-feed op-feed-${f.phase}`} role="status" aria-label={t('feed.state.label', { node: id, state: text })} title={title} data-feed-phase={f.phase}>
      <span className="op-feed-dot" aria-hidden />
      <span className="op-feed-text">{text}</span>
      {f.dropped > 0 && (
        <span className="op-dead" title={t('feed.state.droppedTitle')}>
          {t('feed.state.dropped', { n: String(f.dropped) })}
        </span>
      )}
    </div>
  );
}
