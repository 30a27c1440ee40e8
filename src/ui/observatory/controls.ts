import type { Breakpoint, ObserveRequest, StateDiff } from '../../runtime/observe/types.ts';
import { engine, liveEngine } from '../run/engineClient.ts';
import { observe, runStore } from '../run/runStore.ts';

/**
 * The observatory's way to the engine: the run controller's helpers where they exist, the engine
 * API for the two calls that have none. Nothing here is sent before a job is loaded, since asking
 * would start a worker for nothing.
 */
const loaded = (): boolean => {
  const st = runStore.get().snapshot?.status;
  return st !== undefined && st !== 'idle';
};

export function sendObserve(req: ObserveRequest): void {
  if (loaded()) observe(req);
}

export const diffCheckpoints = (from: number, to: number): Promise<StateDiff> => engine().diffCheckpoints(from, to);
export const applyBreakpoints = (bps: Breakpoint[]): Promise<{ node: string; message: string }[]> => {
  const live = loaded() ? liveEngine() : null;
  return live ? live.setBreakpoints(bps) : Promise.resolve([]);
};
export { checkpointNow, downloadSavepoint, restoreTo, startFromSavepoint, stepPipeline } from '../run/runController.ts';
