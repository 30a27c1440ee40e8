import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import { WorkerRuntime } from './workerRuntime.ts';
import type { WorkerPlatform } from './workerRuntime.ts';

/** One started worker, whatever kind of thread it is. */
export interface SpawnedWorker {
  /** Where comlink talks to the worker's WorkerRuntime. */
  endpoint: Endpoint;
  terminate(): void;
  /**
   * Called when the worker dies on its own: an `error` event or an exit nobody asked for.
   * `fatal`: the worker was stopped for a fault a restart would only meet again (user code over
   * its time limit), so the job must fail instead of restarting.
   */
  onFailure(cb: (reason: string, fatal?: boolean) => void): void;
  /** A pooled worker goes back to its pool (after a normal end) instead of being terminated. */
  recycle?(): void;
}

/** Starts worker number `index`; Node passes worker_threads, the browser Web Workers. */
export type Spawn = (index: number) => SpawnedWorker;

/**
 * Workers as MessageChannels inside this thread: the same protocol, ports and comlink calls
 * without thread start-up, for fast tests. "Terminating" one stops its runtime and closes its ports.
 */
export function inProcessSpawn(platform: () => WorkerPlatform = () => ({})): Spawn {
  return () => {
    const { port1, port2 } = new MessageChannel();
    const runtime = new WorkerRuntime(platform());
    Comlink.expose(runtime, port2);
    let dead = false;
    const fail: ((reason: string) => void)[] = [];
    return {
      endpoint: port1,
      terminate() {
        if (dead) return;
        dead = true;
        runtime.stop();
        port1.close();
        port2.close();
      },
      onFailure: (cb) => void fail.push(cb),
    };
  };
}
