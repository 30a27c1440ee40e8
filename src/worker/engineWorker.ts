/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { ClusterSession } from './clusterSession.ts';
import { WorkersSession } from './workersSession.ts';
import { EngineSessions } from './engineSessions.ts';
import type { EngineApi } from './protocol.ts';
import { codeLimitsOf, installCodeHost } from '../engine/codeHost.ts';
import { watchedCodeHost } from '../runtime/browser/watchedCodeHost.ts';
import { BrowserJob } from '../runtime/browser/browserJob.ts';
import { durableCheckpointStore } from './jobStorage.ts';

// comlink glue only: the sessions do the work, user code runs in workers and never on the main thread.
const sessions = new EngineSessions(new ClusterSession(), new WorkersSession({ start: (doc, opts) => new BrowserJob(doc, opts), durableStore: durableCheckpointStore }));
const inProcess = sessions.inProcess;
const workers = sessions.workers;
const onWorkers = () => sessions.runsOn === 'workers';
let watchPort: MessagePort | null = null;

/** A control only the in-process run has: on Web Workers it is refused, saying how to get it. */
function inProcessOnly<T>(what: string, run: () => T): T | Promise<never> {
  return onWorkers() ? Promise.reject(workers.refuse(what)) : run();
}

const api: EngineApi = {
  load: (doc, opts) => {
    // Operators created from this load run their code under the page's watchdog.
    installCodeHost(watchedCodeHost(codeLimitsOf(doc.settings), (m) => watchPort?.postMessage(m)));
    return sessions.load(doc, opts);
  },
  run: () => (onWorkers() ? workers.run() : inProcess.run()),
  pause: () => (onWorkers() ? workers.pause() : inProcess.pause()),
  step: (kind) => void (onWorkers() ? workers.refuse('stepping') : inProcess.step(kind)),
  stop: () => void (onWorkers() ? workers.stop() : inProcess.stop()),
  stepBack: (kind) => inProcessOnly('stepping back', () => inProcess.stepBack(kind)),
  seek: (step) => inProcessOnly('moving in the run history', () => inProcess.seek(step)),
  setSpeed: (s) => (onWorkers() ? workers.setSpeed(s) : inProcess.setSpeed(s)),
  setCheckpointInterval: (ms) => (onWorkers() ? workers.setCheckpointInterval(ms) : inProcess.setCheckpointInterval(ms)),
  killSubtask: (id) => (onWorkers() ? workers.killSubtask(id) : inProcess.killSubtask(id)),
  triggerCheckpoint: () => (onWorkers() ? workers.triggerCheckpoint() : inProcess.triggerCheckpoint()),
  inject: (source, values) => inProcessOnly('injecting a record', () => inProcess.inject(source, values)),
  restoreTo: (id) => inProcessOnly('travelling back to a checkpoint', () => inProcess.restoreTo(id)),
  diffCheckpoints: (from, to) => inProcessOnly('comparing the state of two checkpoints', () => inProcess.diffCheckpoints(from, to)),
  exportSavepoint: (id) =>
    inProcessOnly('saving a checkpoint as a savepoint', async () => {
      const bytes = await inProcess.exportSavepoint(id);
      return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
    }),
  resumable: (jobId) => inProcess.resumable(jobId),
  setBreakpoints: async (bps) => {
    // Kept for the next run in one worker; on Web Workers no breakpoint can pause a record.
    const checked = inProcess.setBreakpoints(bps);
    if (!onWorkers() || !bps.length) return checked;
    const message = workers.refuse('a breakpoint').message;
    return bps.map((b) => ({ node: b.node, message }));
  },
  observe: (req) => (onWorkers() ? undefined : inProcess.observe(req)),
  setSinkWindow: (id, offset, limit) => (onWorkers() ? workers.setSinkWindow(id, offset, limit) : inProcess.setSinkWindow(id, offset, limit)),
  onSnapshot: (listener, opts) => sessions.onSnapshot(listener, opts),
  snapshotApplied: (heldRows) => sessions.snapshotApplied(heldRows),
  watchCode: (port) => {
    watchPort = port;
  },
};

Comlink.expose(api);
