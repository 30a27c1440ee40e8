/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { ClusterSession } from './clusterSession.ts';
import type { EngineApi } from './protocol.ts';
import { installCodeHost } from '../engine/codeHost.ts';
import { watchedCodeHost } from './watchedCodeHost.ts';

// comlink glue only: the session does the work, user code runs here and never on the main thread.
const session = new ClusterSession();
let watchPort: MessagePort | null = null;

const api: EngineApi = {
  load: (doc, opts) => {
    // Operators created from this load run their code under the page's watchdog.
    installCodeHost(watchedCodeHost(doc, (m) => watchPort?.postMessage(m)));
    return session.load(doc, opts);
  },
  run: () => session.run(),
  pause: () => session.pause(),
  step: (kind) => void session.step(kind),
  stop: () => void session.stop(),
  stepBack: (kind) => session.stepBack(kind),
  seek: (step) => session.seek(step),
  setSpeed: (s) => session.setSpeed(s),
  setCheckpointInterval: (ms) => session.setCheckpointInterval(ms),
  killSubtask: (id) => session.killSubtask(id),
  triggerCheckpoint: () => session.triggerCheckpoint(),
  inject: (source, values) => session.inject(source, values),
  restoreTo: (id) => session.restoreTo(id),
  diffCheckpoints: (from, to) => session.diffCheckpoints(from, to),
  exportSavepoint: async (id) => {
    const bytes = await session.exportSavepoint(id);
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  },
  resumable: (jobId) => session.resumable(jobId),
  setBreakpoints: async (bps) => session.setBreakpoints(bps),
  observe: (req) => session.observe(req),
  setSinkWindow: (id, offset, limit) => session.setSinkWindow(id, offset, limit),
  onSnapshot: (listener, opts) => session.onSnapshot(listener, opts),
  snapshotApplied: () => session.snapshotApplied(),
  watchCode: (port) => {
    watchPort = port;
  },
};

Comlink.expose(api);
