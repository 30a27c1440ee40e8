import type { Breakpoint } from '../../runtime/observe/types.ts';
import { createStore } from '../store/createStore.ts';
import { applyBreakpoints } from './controls.ts';

export interface BreakpointState {
  /** node id → its breakpoint; `on` false keeps the condition while the breakpoint is off. */
  byNode: Record<string, { on: boolean; condition: string }>;
  /** What the engine said about a breakpoint (a condition that does not parse), by node. */
  problems: Record<string, string>;
}

export const breakpointStore = createStore<BreakpointState>({ byNode: {}, problems: {} });

/** The breakpoints to send: enabled ones, with a condition only when one is written. */
export function activeBreakpoints(s: BreakpointState): Breakpoint[] {
  return Object.entries(s.byNode)
    .filter(([, b]) => b.on)
    .map(([node, b]) => (b.condition.trim() ? { node, condition: b.condition.trim() } : { node }));
}

/** Sends the current breakpoints to the engine and keeps its complaints next to the nodes. */
export async function syncBreakpoints(): Promise<void> {
  const problems = await applyBreakpoints(activeBreakpoints(breakpointStore.get()));
  breakpointStore.set((s) => ({ ...s, problems: Object.fromEntries(problems.map((p) => [p.node, p.message])) }));
}

export function setBreakpoint(node: string, patch: Partial<{ on: boolean; condition: string }>): void {
  breakpointStore.set((s) => ({ ...s, byNode: { ...s.byNode, [node]: { ...(s.byNode[node] ?? { on: false, condition: '' }), ...patch } } }));
}
