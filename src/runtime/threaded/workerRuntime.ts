import { revivePlan } from './portablePlan.ts';
import type { ByteInput } from '../../core/lineSource.ts';
import type { KeyedStateBackend, StateTime } from '../../state/backend.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import type { Row } from '../../core/types.ts';
import type { Placement } from './assignment.ts';
import { WorkerHost } from './workerHost.ts';
import type { HostEnv } from './workerHost.ts';
import type { DeploySpec, OpenableInput, PeerFrame, UdfThrow, WorkerApi, WorkerEvent, WorkerStats } from './protocol.ts';
import { messageChannelYield, wallClock } from './wallClock.ts';

/** What differs between thread kinds: how keyed state is made (and opened) for `--state indexeddb`. */
export interface WorkerPlatform {
  /** Runs first on every deploy (load an IndexedDB implementation, close the last deploy's state). */
  init?(spec: DeploySpec): Promise<void>;
  /** A keyed state backend for one subtask; undefined means the memory backend. */
  stateBackend?(spec: DeploySpec, plan: JobPlan, p: Placement, time: StateTime): KeyedStateBackend | undefined;
  /** Runs after the host is built and before restore, e.g. to open IndexedDB connections. */
  prepare?(host: WorkerHost): Promise<void>;
  /** Compaction and chunk garbage collection of durable backends (per node: handles of every retained checkpoint). */
  retainOnly?(handles: Record<string, KeyedStateHandle[]>): Promise<void>;
  /** Deletes the job's chunks that `handles` do not refer to (only while nothing writes). */
  sweepChunks?(handles: KeyedStateHandle[]): Promise<number>;
  dispose?(): void;
  /** Opens a source's input given by path (Node workers read the CLI's files themselves, in blocks). */
  openFile?(input: OpenableInput): ByteInput;
}

/**
 * The object a worker exposes to the job manager: it builds a WorkerHost per deployment and
 * wires the host to the worker's ports. One runtime lives for the life of its worker thread.
 */
export class WorkerRuntime implements WorkerApi {
  private host: WorkerHost | null = null;
  private ports: MessagePort[] = [];
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private yielder: ReturnType<typeof messageChannelYield> | null = null;

  constructor(private readonly platform: WorkerPlatform = {}) {}

  async deploy(spec: DeploySpec, peers: (MessagePort | null)[], events: MessagePort): Promise<void> {
    this.stop();
    await this.platform.init?.(spec);
    const plan = revivePlan(spec.plan);
    const emit = (ev: WorkerEvent, transfer: Transferable[] = []) => events.postMessage(ev, transfer);
    const yielder = (this.yielder = messageChannelYield());
    const env: HostEnv = {
      emit,
      post: (peer: number, frames: PeerFrame[], transfer: Transferable[]) => peers[peer]!.postMessage({ frames }, transfer),
      yieldNow: yielder.yieldNow,
      after: (ms, cb) => {
        const t = setTimeout(cb, ms);
        return () => clearTimeout(t);
      },
      clock: wallClock,
      backend: this.platform.stateBackend ? (p, time) => this.platform.stateBackend!(spec, plan, p, time) : undefined,
      openFile: this.platform.openFile ? (input) => this.platform.openFile!(input) : undefined,
    };
    const host = new WorkerHost(plan, spec, env);
    this.host = host;
    this.ports = [events, ...peers.filter((p): p is MessagePort => p !== null)];
    await this.platform.prepare?.(host);
    if (spec.restore) {
      host.restore(spec.restore);
      await host.ready();
    }
    peers.forEach((port, j) => {
      if (port) port.onmessage = (e: MessageEvent<{ frames: PeerFrame[] }>) => host.receive(j, e.data.frames);
    });
    const beat = () => emit({ t: 'heartbeat', attempt: spec.attempt, worker: spec.worker, sourceOffsets: host.sourceOffsets() });
    beat();
    this.heartbeat = setInterval(beat, spec.heartbeatMs);
  }

  start(): void {
    this.host?.start();
  }

  trigger(checkpointId: number): void {
    this.host?.trigger(checkpointId);
  }

  completed(checkpointId: number): void {
    this.host?.completed(checkpointId);
  }

  async retainOnly(handles: Record<string, KeyedStateHandle[]>): Promise<void> {
    await this.platform.retainOnly?.(handles);
  }

  async sweepChunks(handles: KeyedStateHandle[]): Promise<number> {
    return (await this.platform.sweepChunks?.(handles)) ?? 0;
  }

  feed(node: string, entries: (string | number)[], ended: boolean): void {
    this.host?.feed(node, entries, ended);
  }

  views(): Record<string, Row[]> {
    if (!this.host) throw new Error('nothing is deployed on this worker');
    return this.host.views();
  }

  finishJob(): void {
    this.host?.finishJob();
  }

  stats(): WorkerStats {
    if (!this.host) throw new Error('nothing is deployed on this worker');
    return this.host.stats();
  }

  pace(perSubtask: number | null): void {
    this.host?.setPace(perSubtask);
  }

  throwInUdfAt(t: UdfThrow): void {
    this.host?.throwInUdfAt(t);
  }

  freeze(ms: number): void {
    // Blocks this thread like a UDF stuck in a loop: no heartbeats, no messages handled.
    if (typeof SharedArrayBuffer === 'function') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    else for (const end = performance.now() + ms; performance.now() < end; );
  }

  stop(): void {
    this.host?.stop();
    this.host = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.yielder?.close();
    this.yielder = null;
    for (const p of this.ports) p.close();
    this.ports = [];
    this.platform.dispose?.();
  }
}
