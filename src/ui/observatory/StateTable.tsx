import { useEffect, useRef, useState } from 'react';
import { fmtClock, resultColumns } from './stateColumns.ts';
import type { StateTable as Table } from '../../runtime/observe/types.ts';
import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtKey, fmtMs, fmtTime, fmtTimestamp } from './format.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { observeStore, setObserve, togglePin, toggleSort } from './observeStore.ts';
import { bumpFlashes, changeStreaks, flashClass, isSteady, soonestTtl, stateWindow } from './stateLogic.ts';
import { ValueCell } from './ValueCell.tsx';

const ROW_H = 28;
/** Rows beyond each edge of the view: enough for a wheel notch between two snapshots (12.5 Hz). Each extra
 * row is re-rendered on every frame while the job runs, so a generous overscan costs frame rate. */
const OVERSCAN = 6;

/**
 * Keyed state of one operator, one row per key. Only the rows in view exist in the DOM, and the
 * engine sends only that window (after its own search, sort and pinning).
 */
export function StateTable({ table, declared = null, types = null, keyFields = [], raw = false }: { table: Table; declared?: string[] | null; types?: Record<string, FieldType> | null; keyFields?: string[]; raw?: boolean }) {
  const t = useT();
  const { sort, pinned } = useStore(observeStore, (r) => r);
  const body = useRef<HTMLDivElement>(null);
  const flashes = useRef(new Map<string, number>());
  const seen = useRef<Table | null>(null);
  const streaks = useRef(new Map<string, number>());
  const [view, setView] = useState({ top: 0, height: 240 });
  // Rows with an open list value: they must overlay the rows below (see .obs-row.expanded).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggleExpanded = (key: string, open: boolean) =>
    setExpanded((cur) => {
      if (cur.has(key) === open) return cur;
      const next = new Set(cur);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  if (seen.current !== table) {
    seen.current = table;
    bumpFlashes(flashes.current, table.rows);
    streaks.current = changeStreaks(streaks.current, table.rows);
  }

  const { offset, limit } = stateWindow(view.top, view.height, ROW_H, OVERSCAN);
  useEffect(() => setObserve({ stateOffset: offset, stateLimit: limit }), [offset, limit]);
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setView((v) => ({ ...v, height: el.clientHeight })));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // The declared output columns unless the raw accumulators were asked for (or there is no result row).
  const result = raw ? null : resultColumns(table, declared, keyFields);
  const valueCols = result ? result.columns : table.descriptors;
  const cols = ['key', ...valueCols, 'ttl', 'updated'];
  const template = `34px minmax(90px, 1fr) ${valueCols.map((c) => (result && types?.[c] === 'timestamp' ? 'minmax(180px, 1.4fr)' : 'minmax(110px, 1.4fr)')).join(' ')} 90px 110px 72px`;
  const arrow = (c: string) => (sort?.column === c ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : '');
  const label = (c: string) => (c === 'key' ? t('observatory.state.key') : c === 'ttl' ? t('observatory.state.ttl') : c === 'updated' ? t('observatory.state.updated') : c);
  return (
    <div className="obs-table" role="table" aria-label={t('observatory.state.tableLabel', { node: table.node })} aria-rowcount={table.total + 1}>
      <div className="obs-table-head" role="row" style={{ gridTemplateColumns: template }}>
        <span role="columnheader" aria-label={t('observatory.state.pin')} />
        {cols.map((c) =>
          c === 'ttl' ? (
            <span key={c} role="columnheader">
              {label(c)}
            </span>
          ) : (
            <span key={c} role="columnheader" aria-sort={sort?.column === c ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
              <button type="button" className="obs-sort" onClick={() => toggleSort(c)}>
                {label(c)}
                {arrow(c)}
              </button>
            </span>
          ),
        )}
        <span role="columnheader">{t('observatory.state.subtaskShort')}</span>
      </div>
      <div className="obs-table-body" ref={body} onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}>
        {table.total === 0 && <div className="panel-empty">{t('observatory.state.noKeys')}</div>}
        <div style={{ height: table.total * ROW_H, position: 'relative' }}>
          {table.rows.map((r, i) => {
            const isPinned = pinned.includes(r.keyText);
            const ttl = soonestTtl(r);
            return (
              <div key={r.keyText} role="row" aria-rowindex={table.offset + i + 2} className={`obs-row${isPinned ? ' pinned' : ''}${expanded.has(r.keyText) ? ' expanded' : ''}${isSteady(streaks.current, r.keyText) ? '' : flashClass(flashes.current, r.keyText)}`} style={{ top: (table.offset + i) * ROW_H, gridTemplateColumns: template }}>
                <span role="cell">
                  <button type="button" className={`obs-pin${isPinned ? ' on' : ''}`} aria-pressed={isPinned} aria-label={t(isPinned ? 'observatory.state.unpinKey' : 'observatory.state.pinKey', { key: fmtKey(r.key) })} onClick={() => togglePin(r.keyText)}>
                    {isPinned ? '★' : '☆'}
                  </button>
                </span>
                <span role="cell" className="obs-key" title={r.keyText}>
                  {fmtKey(r.key)}
                </span>
                {result
                  ? valueCols.map((c) => (
                      <span key={c} role="cell">
                        <ResultCell value={result.row(r.states)?.[c] ?? null} type={types?.[c]} onToggle={(open) => toggleExpanded(r.keyText, open)} />
                      </span>
                    ))
                  : table.descriptors.map((d) => (
                      <span key={d} role="cell">
                        <ValueCell value={r.states[d]} onToggle={(open) => toggleExpanded(r.keyText, open)} />
                      </span>
                    ))}
                <span role="cell" className="num" title={Object.entries(r.ttlMs).map(([d, v]) => `${d}: ${fmtMs(v)}`).join('\n')}>
                  {ttl === null ? '—' : fmtMs(ttl)}
                </span>
                <span role="cell" title={t('observatory.state.updatedTitle')}>{fmtClock(r.updatedAt)}</span>
                <span role="cell" className="muted">
                  #{r.subtask}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** A declared output column's value, a timestamp as the Results table writes it (not epoch ms). */
function ResultCell({ value, type, onToggle }: { value: unknown; type?: FieldType; onToggle: (open: boolean) => void }) {
  if (type === 'timestamp' && typeof value === 'number' && Number.isFinite(value)) return <span className="obs-value" title={String(value)}>{fmtTimestamp(value)}</span>;
  return <ValueCell value={value} onToggle={onToggle} />;
}
