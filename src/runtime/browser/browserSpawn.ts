import type { Spawn } from '../threaded/spawn.ts';
import { CODE_WATCH_PORT, overrunMessage, watchCodePort } from './watchedCodeHost.ts';

/** Starts each worker as a module Web Worker running runtimeWorker.ts (bundled by Vite). */
export function browserSpawn(): Spawn {
  return (index) => {
    const worker = new Worker(new URL('./runtimeWorker.ts', import.meta.url), { type: 'module', name: `weir-worker-${index}` });
    const listeners: ((reason: string, fatal?: boolean) => void)[] = [];
    let dead: { reason: string; fatal: boolean } | null = null;
    const report = (reason: string, fatal = false) => {
      if (dead !== null) return;
      dead = { reason, fatal };
      for (const cb of listeners) cb(reason, fatal);
    };
    // An uncaught exception in a worker fires `error` and leaves it running in an unknown state: treat it as dead.
    worker.addEventListener('error', (e) => report(e.message || 'uncaught error in the worker'));
    worker.addEventListener('messageerror', () => report('a message could not be deserialized'));
    // The watchdog for user code in this worker: a batch over its limit stops the worker, and the
    // job fails instead of restarting, since the same record would run into the same code again.
    const watch = new MessageChannel();
    watchCodePort(watch.port1, (m) => {
      worker.terminate();
      report(overrunMessage(m), true);
    });
    worker.postMessage({ [CODE_WATCH_PORT]: watch.port2 }, [watch.port2]);
    return {
      endpoint: worker,
      terminate() {
        dead ??= { reason: 'terminated', fatal: false };
        watch.port1.close();
        worker.terminate();
      },
      onFailure(cb) {
        listeners.push(cb);
        if (dead !== null && dead.reason !== 'terminated') cb(dead.reason, dead.fatal);
      },
    };
  };
}
