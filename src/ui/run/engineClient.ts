import * as Comlink from 'comlink';
import type { EngineApi, LoadOptions, LoadResult } from '../../worker/protocol.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { acceptSnapshot, runStore } from './runStore.ts';
import { heldRows } from './stableSinks.ts';
import { perFrame } from '../observatory/snapshotPacer.ts';
import { overrunMessage, watchCodePort } from '../../runtime/browser/watchedCodeHost.ts';

let remote: Comlink.Remote<EngineApi> | null = null;
let worker: Worker | null = null;

/** The engine worker, created on first use; its death is reported through the error event. */
export function engine(): Comlink.Remote<EngineApi> {
  if (!remote) {
    worker = new Worker(new URL('../../worker/engineWorker.ts', import.meta.url), { type: 'module', name: 'weir-engine' });
    remote = Comlink.wrap<EngineApi>(worker);
    const own = remote;
    // Credit: the worker produces the next running snapshot only once this one is on screen; with
    // the ack go the sink rows versions held, which later snapshots then leave out.
    void own.onSnapshot(Comlink.proxy(perFrame(acceptSnapshot, undefined, () => void own.snapshotApplied(heldRows(runStore.get().snapshot?.sinks)))), { credit: true });
    const fail = (message: string, node?: string) => {
      acceptSnapshot({ status: 'failed', records: 0, rate: 0, clockMs: 0, metrics: {}, deadLetters: {}, sinks: {}, checkpoints: 0, restarts: 0, frame: null, error: { message, node }, log: [{ seq: Date.now(), level: 'error', at: 0, node, message }] });
      worker?.terminate();
      remote = null;
      worker = null;
    };
    worker.addEventListener('error', (e) => fail(`engine worker crashed: ${e.message}`));
    const watch = new MessageChannel();
    // The watchdog for user code in the engine worker (the run in one worker).
    watchCodePort(watch.port1, (m) => fail(overrunMessage(m), m.node));
    void own.watchCode(Comlink.transfer(watch.port2, [watch.port2]));
  }
  return remote;
}

/**
 * The engine worker if one is up, else null: never starts one. What only asks about or tunes a
 * job (observation requests, sink windows, breakpoints, speed) goes here, since a fresh worker
 * has no job and its first snapshot says "Not running": after the watchdog stopped a worker,
 * such a request would have put that over the failure the person has to read.
 */
export const liveEngine = (): Comlink.Remote<EngineApi> | null => remote;

export async function loadJob(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
  return engine().load(doc, opts);
}
