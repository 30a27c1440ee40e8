import type { StreamInfo } from '../../pipeline/streamInfo.ts';

/** What the compiler knows about one port's stream: fields and types, key, event time, changelog. */
export function StreamSummary({ port, info, dir }: { port: string; info: StreamInfo | undefined; dir: 'in' | 'out' }) {
  return (
    <div className="stream">
      <div className="stream-head">
        <span className={`stream-dir stream-${dir}`}>{dir === 'in' ? '→' : '←'}</span>
        <span className="stream-port">{port}</span>
        {info && (
          <span className="stream-tags">
            {info.keyedBy && <span className="chip">keyed by {info.keyedBy.join(', ')}</span>}
            {info.eventTime && <span className="chip">event time {info.eventTime}</span>}
            <span className={`chip${info.changelog === 'update' ? ' chip-warn' : ''}`}>{info.changelog === 'update' ? 'updating' : 'append-only'}</span>
            {info.uniqueKey && info.uniqueKey.length > 0 && <span className="chip">unique key {info.uniqueKey.join(', ')}</span>}
          </span>
        )}
      </div>
      {!info ? (
        <div className="muted small">not connected</div>
      ) : info.fields ? (
        <div className="stream-fields">
          {Object.entries(info.fields).map(([k, t]) => (
            <span key={k} className="stream-field">
              <span className="mono">{k}</span>
              <span className="stream-type">{t}</span>
            </span>
          ))}
        </div>
      ) : (
        <div className="muted small">fields unknown (declare an output schema on the code operator)</div>
      )}
    </div>
  );
}
