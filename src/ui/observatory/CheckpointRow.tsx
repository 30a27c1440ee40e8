import { useState } from 'react';
import type { CheckpointRecord } from '../../checkpoint/types.ts';
import { useT } from '../i18n/i18n.ts';
import { durationOf, perOperator } from './checkpointLogic.ts';
import { fmtBytes, fmtMs, fmtTime } from './format.ts';

export interface CheckpointRowProps {
  cp: CheckpointRecord;
  bar: number;
  /** Still kept by the engine: only a retained checkpoint can be restored, diffed or downloaded. */
  retained: boolean;
  /** False on Web Workers: restoring, comparing and downloading need the run in one worker. */
  actions?: boolean;
  picked: boolean;
  onPick(): void;
  onRestore(): void;
  onDownload(): void;
}

/** One checkpoint on the timeline: status, duration bar, sizes, actions, and per-operator timings on demand. */
export function CheckpointRow({ cp, bar, retained, actions = true, picked, onPick, onRestore, onDownload }: CheckpointRowProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const done = cp.status === 'completed' && retained && actions;
  const ops = open ? perOperator(cp) : [];
  return (
    <li className={`obs-cp obs-cp-${cp.status}`} aria-label={t('observatory.cp.rowLabel', { id: cp.checkpointId })}>
      <div className="obs-cp-line">
        <button type="button" className="btn-icon obs-cp-expand" aria-expanded={open} aria-label={t(open ? 'observatory.cp.hideDetails' : 'observatory.cp.showDetails', { id: cp.checkpointId })} onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'}
        </button>
        <span className="obs-cp-id mono">#{cp.checkpointId}</span>
        <span className={`chip chip-small obs-cp-status obs-status-${cp.status}`}>{t(`observatory.cp.status.${cp.status}`)}</span>
        <span className="obs-cp-dur" title={t('observatory.cp.durationTitle', { from: fmtTime(cp.triggeredAt), to: fmtTime(cp.completedAt) })}>
          <span className="obs-cp-bar">
            <i style={{ width: `${bar * 100}%` }} />
          </span>
          <span className="mono">{fmtMs(durationOf(cp))}</span>
        </span>
        <span className="obs-cp-num mono" title={t('observatory.cp.fullSize')}>
          {fmtBytes(cp.fullBytes)}
        </span>
        <span className="obs-cp-num mono" title={t('observatory.cp.incrementalSize')}>
          +{fmtBytes(cp.incrementalBytes)}
        </span>
        <span className="obs-cp-actions">
          {cp.status === 'completed' && !retained && <span className="muted small">{t('observatory.cp.notRetained')}</span>}
          {done && (
            <label className="obs-pick">
              <input type="checkbox" checked={picked} onChange={onPick} />
              {t('observatory.cp.compare')}
            </label>
          )}
          {done && !confirming && (
            <button type="button" className="btn btn-small" onClick={() => setConfirming(true)}>
              {t('observatory.cp.restore')}
            </button>
          )}
          {confirming && (
            <span className="obs-confirm" role="group" aria-label={t('observatory.cp.confirmLabel', { id: cp.checkpointId })}>
              {t('observatory.cp.confirmText', { id: cp.checkpointId })}
              <button type="button" className="btn btn-small btn-primary" onClick={() => (setConfirming(false), onRestore())}>
                {t('observatory.cp.confirmRestore')}
              </button>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </button>
            </span>
          )}
          {done && (
            <button type="button" className="btn btn-small btn-ghost" onClick={onDownload}>
              {t('observatory.cp.download')}
            </button>
          )}
        </span>
      </div>
      {cp.status === 'aborted' && cp.reason && <div className="obs-cp-reason">{t('observatory.cp.abortedBecause', { reason: cp.reason })}</div>}
      {open && (
        <table className="obs-grid obs-cp-ops">
          <thead>
            <tr>
              <th>{t('observatory.cp.operator')}</th>
              <th>{t('observatory.cp.alignment')}</th>
              <th>{t('observatory.cp.sync')}</th>
              <th>{t('observatory.cp.async')}</th>
              <th>{t('observatory.cp.stateSize')}</th>
              <th>{t('observatory.cp.written')}</th>
              <th>{t('observatory.cp.buffered')}</th>
            </tr>
          </thead>
          <tbody>
            {ops.length === 0 && (
              <tr>
                <td colSpan={7} className="muted">
                  {t('observatory.cp.noStats')}
                </td>
              </tr>
            )}
            {ops.map((o) => (
              <tr key={o.node}>
                <td>
                  {o.node} <span className="muted">×{o.subtasks}</span>
                </td>
                <td className="num">{fmtMs(o.alignMs)}</td>
                <td className="num">{fmtMs(o.syncMs)}</td>
                <td className="num">{fmtMs(o.asyncMs)}</td>
                <td className="num">{fmtBytes(o.stateBytes)}</td>
                <td className="num">{fmtBytes(o.writtenBytes)}</td>
                <td className="num">{o.buffered}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}
