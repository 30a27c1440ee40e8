import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';

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
  const m = useStore(runStore, (s) => (s.snapshot && s.snapshot.status !== 'idle' ? s.snapshot.metrics[id] : undefined));
  if (!m) return null;
  return (
    <div className="op-metrics" aria-label={`metrics of ${id}`}>
      <span title="records in">in {fmt(m.recordsIn)}</span>
      <span title="records out">out {fmt(m.recordsOut)}</span>
      <span title="watermark">wm {wm(m.watermark)}</span>
      {m.deadLetters > 0 && (
        <span className="op-dead" title="dead letters: records that could not be processed (see Log)">
          ✕ {fmt(m.deadLetters)}
        </span>
      )}
      {(m.counters.lateRecords ?? 0) > 0 && <span title="late records">late {fmt(m.counters.lateRecords)}</span>}
    </div>
  );
}
