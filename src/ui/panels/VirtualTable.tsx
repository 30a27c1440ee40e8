import { useEffect, useRef, useState } from 'react';
import type { SinkSample } from '../../worker/protocol.ts';
import { liveEngine } from '../run/engineClient.ts';
import { useT } from '../i18n/i18n.ts';
import { SinkColumnHeader } from '../lineage/SinkColumnHeader.tsx';
import { fmtTimestamp } from '../observatory/format.ts';

const ROW_H = 26;
const OVERSCAN = 30;

const cell = (v: unknown, type?: string): string => {
  if (v === null || v === undefined) return '∅';
  if (type === 'timestamp' && typeof v === 'number' && Number.isFinite(v)) return fmtTimestamp(v);
  // Sums of decimals carry binary noise (309.42999999999995); 12 significant digits show what the user typed.
  if (typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)) return String(Number(v.toPrecision(12)));
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
};

/**
 * A sink table that renders only the rows in view and asks the worker for just that window,
 * so 100,000 rows cost the same as 100.
 */
export function VirtualTable({ sinkId, sample }: { sinkId: string; sample: SinkSample }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 300 });
  const first = Math.floor(view.top / ROW_H);
  const count = Math.ceil(view.height / ROW_H) + 1;
  const wantOffset = Math.max(0, first - OVERSCAN);
  const wantLimit = count + OVERSCAN * 2;

  useEffect(() => {
    const id = requestAnimationFrame(() => void liveEngine()?.setSinkWindow(sinkId, wantOffset, wantLimit));
    return () => cancelAnimationFrame(id);
  }, [sinkId, wantOffset, wantLimit]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setView((v) => ({ ...v, height: el.clientHeight })));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const cols = sample.columns;
  const types = sample.types ?? {};
  const template = cols.map((c) => (types[c] === 'timestamp' ? 'minmax(190px, 1.4fr)' : 'minmax(110px, 1fr)')).join(' ');
  const visible = sample.rows.map((r, i) => ({ r, index: sample.offset + i })).filter((x) => x.index >= first - 2 && x.index < first + count + 2);
  return (
    <div className="vtable" role="table" aria-label={t('panels.rowsOf', { sink: sinkId })} aria-rowcount={sample.total + 1}>
      <div className="vtable-head" role="row" style={{ gridTemplateColumns: `64px ${template}` }}>
        <span role="columnheader" className="vtable-num">
          #
        </span>
        {cols.map((c) => (
          <span key={c} role="columnheader">
            <SinkColumnHeader sink={sinkId} column={c} />
          </span>
        ))}
      </div>
      <div className="vtable-body" ref={box} onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}>
        <div style={{ height: sample.total * ROW_H, position: 'relative' }}>
          {visible.map(({ r, index }) => (
            <div key={index} role="row" aria-rowindex={index + 2} className="vtable-row" style={{ top: index * ROW_H, gridTemplateColumns: `64px ${template}` }}>
              <span className="vtable-num">{index + 1}</span>
              {cols.map((c) => (
                <span key={c} role="cell" title={typeof r[c] === 'number' && types[c] !== 'timestamp' ? String(r[c]) : cell(r[c], types[c])} className={r[c] === null || r[c] === undefined ? 'null' : typeof r[c] === 'number' && types[c] !== 'timestamp' ? 'num' : ''}>
                  {cell(r[c], types[c])}
                </span>
              ))}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
