import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';
import { useT } from '../i18n/i18n.ts';

const fmt = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n));
/** Watermarks that look like epoch ms read better as a UTC time of day. */
export const formatWatermark = (w: number | null): string => {
  if (w === null || w === -Infinity) return '—';
  if (w === Infinity) return 'end';
  if (Math.abs(w) > 1e11) return new Date(w).toISOString().slice(11, 23);
  return String(w);
};
const wm = formatWatermark;

/** Live counters under a node while a job is loaded; subscribes alone so the node body stays still. */
export function NodeMetricsLine({ id }: { id: string }) {
  const t = useT();
  const m = useStore(runStore, (s) => (s.snapshot && s.snapshot.status !== 'idle' ? s.snapshot.metrics[id] : undefined));
  // After a restore the counts are the checkpoint's and on: say so, or they look like a miscount.
  const restoredFrom = useStore(runStore, (s) => s.snapshot?.restoredFrom ?? null);
  if (!m) return null;
  return (
    <div className="op-metrics" aria-label={t('observatory.metrics.label', { node: id })}>
      <span title={t('observatory.metrics.inTitle')}>{t('observatory.metrics.in', { n: fmt(m.recordsIn) })}</span>
      <span title={t('observatory.metrics.outTitle')}>{t('observatory.metrics.out', { n: fmt(m.recordsOut) })}</span>
      {restoredFrom !== null && (
        <span className="op-restored" title={t('observatory.metrics.restoredTitle', { id: restoredFrom })}>
          {t('observatory.metrics.restored', { id: restoredFrom })}
        </span>
      )}
      <span title={t('observatory.metrics.wmTitle')}>{t('observatory.metrics.wm', { wm: wm(m.watermark) })}</span>
      {m.deadLetters > 0 && (
        <span className="op-dead" title={t('observatory.metrics.deadTitle')}>
          ✕ {fmt(m.deadLetters)}
        </span>
      )}
      {(m.counters.lateRecords ?? 0) > 0 && <span title={t('observatory.metrics.lateTitle')}>{t('observatory.metrics.late', { n: fmt(m.counters.lateRecords) })}</span>}
    </div>
  );
}
