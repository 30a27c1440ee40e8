import * as Comlink from 'comlink';
import type { EngineApi, LoadOptions, LoadResult } from '../../worker/protocol.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { acceptSnapshot } from './runStore.ts';
import { perFrame } from '../observatory/snapshotPacer.ts';

let remote: Comlink.Remote<EngineApi> | null = null;
let worker: Worker | null = null;

/** The engine worker, created on first use; its death is reported through the error event. */
export function engine(): Comlink.Remote<EngineApi> {
  if (!remote) {
    worker = new Worker(new URL('../../worker/engineWorker.ts', import.meta.url), { type: 'module', name: 'weir-engine' });
    remote = Comlink.wrap<EngineApi>(worker);
    const own = remote;
    // Credit: the worker produces the next running snapshot only once this one is on screen.
    void own.onSnapshot(Comlink.proxy(perFrame(acceptSnapshot, undefined, () => void own.snapshotApplied())), { credit: true });
    worker.addEventListener('error', (e) => {
      acceptSnapshot({ status: 'failed', records: 0, rate: 0, clockMs: 0, metrics: {}, deadLetters: {}, sinks: {}, checkpoints: 0, restarts: 0, frame: null, error: { message: `engine worker crashed: ${e.message}` }, log: [{ seq: Date.now(), level: 'error', at: 0, message: `engine worker crashed: ${e.message}` }] });
      worker?.terminate();
      remote = null;
      worker = null;
    });
  }
  return remote;
}

export async function loadJob(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
  return engine().load(doc, opts);
}
