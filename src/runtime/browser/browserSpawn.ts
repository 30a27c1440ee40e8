import type { Spawn } from '../threaded/spawn.ts';

/** Starts each worker as a module Web Worker running runtimeWorker.ts (bundled by Vite). */
export function browserSpawn(): Spawn {
  return (index) => {
    const worker = new Worker(new URL('./runtimeWorker.ts', import.meta.url), { type: 'module', name: `weir-worker-${index}` });
    const listeners: ((reason: string) => void)[] = [];
    let dead: string | null = null;
    const report = (reason: string) => {
      if (dead !== null) return;
      dead = reason;
      for (const cb of listeners) cb(reason);
    };
    // An uncaught exception in a worker fires `error` and leaves it running in an unknown state: treat it as dead.
    worker.addEventListener('error', (e) => report(e.message || 'uncaught error in the worker'));
    worker.addEventListener('messageerror', () => report('a message could not be deserialized'));
    return {
      endpoint: worker,
      terminate() {
        dead ??= 'terminated';
        worker.terminate();
      },
      onFailure(cb) {
        listeners.push(cb);
        if (dead !== null && dead !== 'terminated') cb(dead);
      },
    };
  };
}
