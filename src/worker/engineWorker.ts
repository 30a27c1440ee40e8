/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { EngineSession } from './engineSession.ts';
import type { EngineApi } from './protocol.ts';

// comlink glue only: the session does the work, user code runs here and never on the main thread.
const session = new EngineSession();

const api: EngineApi = {
  load: async (doc, opts) => session.load(doc, opts),
  run: () => session.run(),
  pause: () => session.pause(),
  step: () => session.step(),
  stop: () => session.stop(),
  setSpeed: (s) => session.setSpeed(s),
  setCheckpointInterval: (ms) => session.setCheckpointInterval(ms),
  killSubtask: (id) => session.killSubtask(id),
  setSinkWindow: (id, offset, limit) => session.setSinkWindow(id, offset, limit),
  onSnapshot: (listener) => session.onSnapshot(listener),
};

Comlink.expose(api);
