import { useEffect } from 'react';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { PipelineNode } from '../../pipeline/document.ts';
import type { BottomTab } from '../store/uiStore.ts';
import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';
import { observeStore, setObserve } from './observeStore.ts';
import { syncBreakpoints } from './breakpointStore.ts';
import { useSelectedNode } from './useSelectedNode.ts';
import { editorStore } from '../store/editorStore.ts';

/** Tabs that show one operator, following the canvas selection. */
export const NODE_TABS: readonly BottomTab[] = ['state', 'join', 'windows'];

/** Which node-specific tabs fit a node, by its kind's group. */
export function tabsForNode(node: PipelineNode | undefined): BottomTab[] {
  const group = node ? kindSpec(node.kind)?.group : undefined;
  if (group === 'joins') return ['state', 'join'];
  if (group === 'windows') return ['state', 'windows'];
  if (group === 'keyed' || group === 'state' || group === 'sinks') return ['state'];
  return [];
}

/**
 * The node a node tab shows: the selected one when it fits the tab, else the first node of the
 * pipeline that does, so a tab opened with nothing (or a filter) selected still shows something.
 */
export function focusNode(nodes: readonly PipelineNode[], selected: string | null, tab: BottomTab): string | null {
  const fits = (n: PipelineNode | undefined) => !!n && tabsForNode(n).includes(tab);
  const sel = selected ? nodes.find((n) => n.id === selected) : undefined;
  if (fits(sel)) return sel!.id;
  return nodes.find(fits)?.id ?? null;
}

export const useFocusNode = (tab: BottomTab): string | null => {
  const selected = useSelectedNode();
  return useStore(editorStore, (s) => focusNode(s.doc.nodes, selected, tab));
};

/**
 * Keeps the engine's observation request in line with what is on screen: the selected node while a
 * node tab is open (the collector then samples only that node), and everything again after a
 * new job loads, since a fresh worker session starts from the default request.
 */
export function useObserveSync(tab: BottomTab, open: boolean): void {
  const focused = useFocusNode(tab);
  const node = open && NODE_TABS.includes(tab) ? focused : null;
  useEffect(() => {
    if (observeStore.get().node !== node) setObserve({ node, stateOffset: 0, search: '', sort: null });
  }, [node]);
  // Scatter points and the trace travel only while their tab is on screen.
  const panel = open ? tab : 'none';
  useEffect(() => {
    if (observeStore.get().panel !== panel) setObserve({ panel });
  }, [panel]);
  // A status change is rare (load, run, pause, finish); resending then costs nothing and covers a fresh session.
  const status = useStore(runStore, (s) => s.snapshot?.status ?? 'none');
  useEffect(() => {
    if (status === 'none' || status === 'idle') return;
    setObserve({});
    void syncBreakpoints();
  }, [status]);
}
