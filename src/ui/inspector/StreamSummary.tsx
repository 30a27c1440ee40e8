import type { StreamInfo } from '../../core/streamInfo.ts';
import { useT } from '../i18n/i18n.ts';
import { ColumnLineageButton } from '../lineage/ColumnLineageButton.tsx';

/**
 * What the compiler knows about one port's stream: fields and types, key, event time, changelog.
 * With `lineageOf`, the node whose columns these are, each field name shows its lineage on the canvas.
 */
export function StreamSummary({ port, info, dir, lineageOf }: { port: string; info: StreamInfo | undefined; dir: 'in' | 'out'; lineageOf?: string }) {
  const t = useT();
  return (
    <div className="stream">
      <div className="stream-head">
        <span className={`stream-dir stream-${dir}`}>{dir === 'in' ? '→' : '←'}</span>
        <span className="stream-port">{port}</span>
        {info && (
          <span className="stream-tags">
            {info.keyedBy && <span className="chip">{t('inspector.keyedBy', { fields: info.keyedBy.join(', ') })}</span>}
            {info.eventTime && <span className="chip">{t('inspector.eventTime', { field: info.eventTime })}</span>}
            <span className={`chip${info.changelog === 'update' ? ' chip-warn' : ''}`}>{info.changelog === 'update' ? t('inspector.updating') : t('inspector.appendOnly')}</span>
            {info.uniqueKey && info.uniqueKey.length > 0 && <span className="chip">{t('inspector.uniqueKey', { fields: info.uniqueKey.join(', ') })}</span>}
          </span>
        )}
      </div>
      {!info ? (
        <div className="muted small">{t('inspector.notConnected')}</div>
      ) : info.fields ? (
        <div className="stream-fields">
          {Object.entries(info.fields).map(([k, type]) => (
            <span key={k} className="stream-field">
              {lineageOf ? <ColumnLineageButton column={{ node: lineageOf, port, column: k }} className="mono" /> : <span className="mono">{k}</span>}
              <span className="stream-type">{type}</span>
            </span>
          ))}
        </div>
      ) : (
        <div className="muted small">{t('inspector.fieldsUnknown')}</div>
      )}
    </div>
  );
}
