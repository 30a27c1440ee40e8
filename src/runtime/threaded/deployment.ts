import * as Comlink from 'comlink';
import type { Remote } from 'comlink';
import type { TimerService } from '../jobMaster.ts';
import type { Spawn, SpawnedWorker } from './spawn.ts';
import type { DeploySpec, WorkerApi, WorkerEvent } from './protocol.ts';

export interface WorkerSlot {
  index: number;
  spawned: SpawnedWorker;
  api: Remote<WorkerApi>;
  events: MessagePort;
  lastSeen: number;
  finished: boolean;
  sourceOffsets: Record<string, number>;
}

// One comlink proxy per worker for its whole life: comlink releases the worker's side once every
// proxy of an endpoint is garbage-collected, which would silence a pooled worker.
const proxies = new WeakMap<object, Remote<WorkerApi>>();
function apiOf(ep: SpawnedWorker['endpoint']): Remote<WorkerApi> {
  let api = proxies.get(ep);
  if (!api) proxies.set(ep, (api = Comlink.wrap<WorkerApi>(ep)));
  return api;
}

export interface DeploymentHooks {
  event(slot: WorkerSlot, ev: WorkerEvent): void;
  /** A worker died, stopped answering, or failed to deploy. Called at most once; `fatal`: never restart. */
  failure(reason: string, fatal?: boolean): void;
}

/**
 * The workers of one attempt: started through the injected spawn, joined pairwise by one
 * MessagePort each, watched through `error` events and heartbeats. comlink calls to a dead
 * worker never settle, so nothing here waits on one without also watching for failure.
 */
export class Deployment {
  readonly slots: WorkerSlot[] = [];
  private readonly eventEnds: MessagePort[] = [];
  private stopMonitor: (() => void) | null = null;
  private failed = false;
  private failureSignal!: (reason: string) => void;
  /** Settles with the reason when this deployment fails. */
  readonly failure: Promise<string>;

  constructor(
    spawn: Spawn,
    count: number,
    private readonly hooks: DeploymentHooks,
    private readonly timers: TimerService,
  ) {
    this.failure = new Promise((resolve) => (this.failureSignal = resolve));
    for (let i = 0; i < count; i++) {
      const spawned = spawn(i);
      const { port1, port2 } = new MessageChannel();
      // port1 stays here and hears the worker's events; port2 travels to the worker in deploy().
      const slot: WorkerSlot = { index: i, spawned, api: apiOf(spawned.endpoint), events: port1, lastSeen: timers.now(), finished: false, sourceOffsets: {} };
      port1.onmessage = (e: MessageEvent<WorkerEvent>) => {
        slot.lastSeen = this.timers.now();
        if (!this.failed) this.hooks.event(slot, e.data);
      };
      spawned.onFailure((reason, fatal) => (fatal ? this.fail(reason, true) : this.fail(`worker ${i} failed: ${reason}`)));
      this.slots.push(slot);
      this.eventEnds.push(port2);
    }
  }

  fail(reason: string, fatal = false): void {
    if (this.failed) return;
    this.failed = true;
    this.failureSignal(reason);
    this.hooks.failure(reason, fatal);
  }

  get isFailed(): boolean {
    return this.failed;
  }

  /** Races a promise against this deployment's failure and a timeout. */
  guard<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    let cancel: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => (cancel = this.timers.after(timeoutMs, () => reject(new Error(`${what} timed out after ${timeoutMs} ms`)))));
    const failed = this.failure.then((reason) => Promise.reject(new Error(reason)));
    return Promise.race([p, timeout, failed]).finally(() => cancel?.());
  }

  /** Sends every worker its part of the job, with one port per worker pair and its events port. */
  async deploy(specFor: (worker: number) => DeploySpec, timeoutMs: number): Promise<void> {
    const n = this.slots.length;
    const peers: (MessagePort | null)[][] = this.slots.map(() => Array<MessagePort | null>(n).fill(null));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const { port1, port2 } = new MessageChannel();
        peers[i][j] = port1;
        peers[j][i] = port2;
      }
    }
    const calls = this.slots.map((s, i) => {
      const own = peers[i].filter((p): p is MessagePort => p !== null);
      const events = this.eventEnds[i];
      return s.api.deploy(specFor(i), Comlink.transfer(peers[i], own), Comlink.transfer(events, [events]));
    });
    await this.guard(Promise.all(calls), timeoutMs, 'deploying the workers');
    const now = this.timers.now();
    for (const s of this.slots) s.lastSeen = now;
  }

  start(heartbeatTimeoutMs: number): void {
    for (const s of this.slots) void s.api.start();
    this.stopMonitor = this.timers.every(Math.max(10, Math.floor(heartbeatTimeoutMs / 4)), () => {
      const now = this.timers.now();
      for (const s of this.slots) {
        if (now - s.lastSeen > heartbeatTimeoutMs) return this.fail(`worker ${s.index} sent no heartbeat for ${Math.round(now - s.lastSeen)} ms (timeout ${heartbeatTimeoutMs} ms)`);
      }
    });
  }

  /** Fire-and-forget control call to every worker; a call the worker rejects fails the deployment. */
  each(fn: (api: Remote<WorkerApi>) => unknown): void {
    for (const s of this.slots) void Promise.resolve(fn(s.api)).catch((e: unknown) => this.fail(`worker ${s.index}: ${(e as Error)?.message ?? String(e)}`));
  }

  /** Stops every worker; after a normal end, pooled workers are stopped and recycled instead. */
  terminate(recycle = false): void {
    const healthy = recycle && !this.failed;
    this.failed = true;
    this.stopMonitor?.();
    this.stopMonitor = null;
    for (const s of this.slots) {
      s.events.close();
      if (healthy && s.spawned.recycle) {
        void s.api.stop();
        s.spawned.recycle();
      } else s.spawned.terminate();
    }
  }
}
