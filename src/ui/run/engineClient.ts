import * as Comlink from 'comlink';
import type { EngineApi, LoadOptions, LoadResult } from '../../worker/protocol.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { acceptSnapshot } from './runStore.ts';
import { perFrame } from '../observatory/snapshotPacer.ts';
import type { CodeWatchMessage } from '../../worker/watchedCodeHost.ts';
import { lineOfCode } from '../../engine/codeLines.ts';

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
    const fail = (message: string, node?: string) => {
      acceptSnapshot({ status: 'failed', records: 0, rate: 0, clockMs: 0, metrics: {}, deadLetters: {}, sinks: {}, checkpoints: 0, restarts: 0, frame: null, error: { message, node }, log: [{ seq: Date.now(), level: 'error', at: 0, node, message }] });
      worker?.terminate();
      remote = null;
      worker = null;
    };
    worker.addEventListener('error', (e) => fail(`engine worker crashed: ${e.message}`));
    const watch = new MessageChannel();
    watchCode(watch.port1, (m) => {
      watch.port1.close();
      const line = lineOfCode(m.source, m.lines?.[0] ?? 0);
      const records = m.per === 'call' ? (m.record ? ` (record ${m.record})` : '') : ` (a batch of ${m.batch}, first record ${m.record})`;
      fail(`node "${m.node}": ${m.what} ran longer than the ${m.limitMs} ms limit per ${m.per}${records}${line ? `, in ${line}` : ''}; the run was stopped. Fix the code or raise settings.code.timeoutMs`, m.node);
    });
    void own.watchCode(Comlink.transfer(watch.port2, [watch.port2]));
  }
  return remote;
}

/**
 * The watchdog for user code: the engine worker says when a batch of code starts and ends; a batch
 * still running after its limit cannot be interrupted from inside, so the worker is terminated.
 */
function watchCode(port: MessagePort, overrun: (m: Extract<CodeWatchMessage, { t: 'busy' }>) => void): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  port.onmessage = (e: MessageEvent<CodeWatchMessage>) => {
    if (timer) clearTimeout(timer);
    timer = null;
    const m = e.data;
    if (m.t === 'busy') timer = setTimeout(() => overrun(m), m.limitMs);
  };
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
