import { useConnection, ViewportPortal } from '@xyflow/react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { checkConnection } from './connectionRules.ts';
import { useT } from '../i18n/i18n.ts';

/** While a connection is dragged over a port, says why that port refuses it (or what it will connect). */
export function ConnectionTooltip() {
  const c = useConnection();
  const doc = useStore(editorStore, (s) => s.doc);
  const streams = useStore(validationStore, (v) => v.streams);
  const t = useT();
  if (!c.inProgress || !c.toHandle) return null;
  const verdict = checkConnection(doc, streams, {
    source: c.fromHandle.nodeId,
    sourceHandle: c.fromHandle.id ?? null,
    target: c.toHandle.nodeId,
    targetHandle: c.toHandle.id ?? null,
  });
  return (
    <ViewportPortal>
      <div
        role="tooltip"
        className={`conn-tip ${verdict.ok ? 'conn-tip-ok' : 'conn-tip-bad'}`}
        style={{ transform: `translate(${c.to.x + 14}px, ${c.to.y + 14}px)` }}
      >
        {verdict.ok ? t('canvas.connect', { from: `${verdict.from.node}.${verdict.from.port}`, to: `${verdict.to.node}.${verdict.to.port}` }) : verdict.reason}
      </div>
    </ViewportPortal>
  );
}
