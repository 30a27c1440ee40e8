import { useCallback, useMemo, useReducer } from 'react';
import { Background, BackgroundVariant, ConnectionMode, ControlButton, Controls, Panel, ReactFlow } from '@xyflow/react';
import { GuardedMiniMap } from './GuardedMiniMap.tsx';
import { layoutStore, setLayout } from '../store/layoutStore.ts';
import type { Connection, Edge, EdgeChange, NodeChange } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { dispatch } from '../actions/registry.ts';
import { addNode, moveNodes } from '../actions/nodeActions.ts';
import { connect, insertOnEdge } from '../actions/edgeActions.ts';
import { insertTarget, insertionAt } from './dropOnEdge.ts';
import { QuickAdd } from './QuickAdd.tsx';
import { toast } from '../store/uiStore.ts';
import { setSelection } from '../actions/docActions.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { edgeId } from '../../pipeline/document.ts';
import { checkConnection } from './connectionRules.ts';
import { FlowEdgeCache, FlowNodeCache } from './toFlow.ts';
import { nodeTypes, edgeTypes } from './nodeTypes.ts';
import { KIND_MIME, canvasBridge, dropPosition, fitView } from './canvasBridge.ts';
import { ConnectionTooltip } from './ConnectionTooltip.tsx';
import { EdgeLabelPlanner } from './PlacedEdgeLabel.tsx';
import { EmptyCanvasHint } from './EmptyCanvasHint.tsx';
import { RunStatusPill } from '../run/RunStatusPill.tsx';
import { importDroppedFile } from '../projects/fileIO.ts';
import { isDataFile } from '../projects/giveSourceFile.ts';
import { dropDataFile } from './dropDataFile.ts';
import type { OpFlowEdge, OpFlowNode } from './flowTypes.ts';
import { useT } from '../i18n/i18n.ts';
import { LineageBar } from '../lineage/LineageBar.tsx';

/** Past this many operators each node gets its own compositing layer, so a drag repaints one node, not all. */
const MANY_NODES = 60;

const minimapColor = (n: OpFlowNode): string => `var(--g-${kindSpec(n.data.node.kind)?.group ?? 'unknown'})`;

function candidateOk(c: Connection | Edge): boolean {
  const s = editorStore.get();
  return checkConnection(s.doc, validationStore.get().streams, { source: c.source, sourceHandle: c.sourceHandle ?? null, target: c.target, targetHandle: c.targetHandle ?? null }).ok;
}

const pointOf = (e: MouseEvent | TouchEvent): [number, number] => {
  const p = 'changedTouches' in e ? e.changedTouches[0] : e;
  return [p.clientX, p.clientY];
};

export function Canvas() {
  const doc = useStore(editorStore, (s) => s.doc);
  const selection = useStore(editorStore, (s) => s.selection);
  const theme = useStore(uiStore, (s) => s.theme);
  const minimapOn = useStore(layoutStore, (l) => l.minimap);
  const t = useT();
  const nodeCache = useMemo(() => new FlowNodeCache(), []);
  const edgeCache = useMemo(() => new FlowEdgeCache(), []);
  const [sizeVersion, bump] = useReducer((x: number) => x + 1, 0);
  canvasBridge.cache = nodeCache;
  // sizeVersion makes measured sizes flow back into the node objects.
  const nodes = useMemo(() => nodeCache.nodes(doc, selection), [doc, selection, sizeVersion, nodeCache]);
  const edges = edgeCache.edges(doc, selection);

  const onNodesChange = useCallback(
    (changes: NodeChange<OpFlowNode>[]) => {
      let resized = false;
      const positions: Record<string, { x: number; y: number }> = {};
      let done = false;
      let moved = false;
      let sel: Set<string> | null = null;
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions) resized = nodeCache.setSize(c.id, c.dimensions) || resized;
        else if (c.type === 'position') {
          const cur = editorStore.get().doc.nodes.find((n) => n.id === c.id)?.position ?? { x: 0, y: 0 };
          positions[c.id] = c.position ?? cur;
          moved = true;
          if (!c.dragging) done = true;
        } else if (c.type === 'select') {
          sel ??= new Set(editorStore.get().selection.nodes);
          if (c.selected) sel.add(c.id);
          else sel.delete(c.id);
        }
      }
      if (resized) bump();
      if (moved) dispatch(moveNodes, { positions, done });
      if (sel) dispatch(setSelection, { nodes: [...sel], edges: editorStore.get().selection.edges });
    },
    [nodeCache],
  );

  const onEdgesChange = useCallback((changes: EdgeChange<OpFlowEdge>[]) => {
    let sel: Set<string> | null = null;
    for (const c of changes) {
      if (c.type !== 'select') continue;
      sel ??= new Set(editorStore.get().selection.edges);
      if (c.selected) sel.add(c.id);
      else sel.delete(c.id);
    }
    if (sel) dispatch(setSelection, { nodes: editorStore.get().selection.nodes, edges: [...sel] });
  }, []);

  const onConnect = useCallback((c: Connection) => {
    const verdict = checkConnection(editorStore.get().doc, validationStore.get().streams, c);
    if (verdict.ok) dispatch(connect, { from: verdict.from, to: verdict.to });
  }, []);

  // Drop a node onto an edge to insert it there: the edge under the pointer lights up during the drag.
  const onNodeDrag = useCallback((e: MouseEvent | TouchEvent, n: OpFlowNode) => {
    const hit = insertionAt(n.id, ...pointOf(e));
    insertTarget.set(hit && 'ok' in hit ? edgeId(hit.ok.edge) : null);
  }, []);
  const onNodeDragStop = useCallback((e: MouseEvent | TouchEvent, n: OpFlowNode) => {
    insertTarget.set(null);
    const hit = insertionAt(n.id, ...pointOf(e));
    if (hit && 'ok' in hit) dispatch(insertOnEdge, hit.ok);
    else if (hit) toast(hit.refused);
  }, []);

  const onDragOver = useCallback((e: React.DragEvent) => {
    if (e.dataTransfer.types.includes(KIND_MIME) || e.dataTransfer.types.includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = e.dataTransfer.types.includes('Files') ? 'copy' : 'move';
    }
  }, []);

  const onDrop = useCallback((e: React.DragEvent) => {
    const kind = e.dataTransfer.getData(KIND_MIME);
    if (kind) {
      e.preventDefault();
      dispatch(addNode, { kind, position: dropPosition(e.clientX, e.clientY) });
      return;
    }
    const file = e.dataTransfer.files[0];
    if (file) {
      e.preventDefault();
      const { clientX, clientY, target } = e;
      void isDataFile(file).then(async (data) => {
        if (data) await dropDataFile(file, clientX, clientY, target);
        else await importDroppedFile(file);
      });
    }
  }, []);

  return (
    <div className={`canvas${doc.nodes.length > MANY_NODES ? ' canvas-many' : ''}`} ref={(el) => void (canvasBridge.pane = el)} onPointerMove={(e) => void (canvasBridge.pointer = { x: e.clientX, y: e.clientY })} onDragOver={onDragOver} onDrop={onDrop} aria-label={t('canvas.label')}>
      <ReactFlow<OpFlowNode, OpFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onNodeDrag={onNodeDrag}
        onNodeDragStop={onNodeDragStop}
        isValidConnection={candidateOk}
        connectionMode={ConnectionMode.Loose}
        connectionRadius={28}
        onInit={(inst) => {
          canvasBridge.flow = inst;
          fitView();
        }}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Meta', 'Control']}
        colorMode={theme}
        onlyRenderVisibleElements
        minZoom={0.1}
        maxZoom={2}
        defaultEdgeOptions={{ type: 'op' }}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} />
        {doc.nodes.length > 0 && <GuardedMiniMap nodeColor={minimapColor as (n: never) => string} />}
        <Panel position="top-left">
          <RunStatusPill />
        </Panel>
        <Panel position="top-right">
          <LineageBar />
        </Panel>
        <Controls showInteractive={false} aria-label={t('canvas.zoomControls')}>
          <ControlButton onClick={() => setLayout({ minimap: !minimapOn })} aria-pressed={minimapOn} aria-label={t('canvas.toggleMinimap')} title={t('canvas.toggleMinimap')}>
            ▦
          </ControlButton>
        </Controls>
        <ConnectionTooltip />
        <EdgeLabelPlanner />
      </ReactFlow>
      {doc.nodes.length === 0 && <EmptyCanvasHint />}
      <QuickAdd />
    </div>
  );
}
