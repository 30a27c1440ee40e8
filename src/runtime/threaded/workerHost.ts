import type { DeadLetter, Element, Row } from '../../core/types.ts';
import { isCodeLimitError } from '../../engine/codeHost.ts';
import type { Clock } from '../../core/clock.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import type { KeyedStateBackend, StateTime } from '../../state/backend.ts';
import type { PendingCommit } from '../../checkpoint/types.ts';
import { subtaskId } from '../../checkpoint/types.ts';
import type { NodeMetrics } from '../../engine/nodeTask.ts';
import { MemoryStateBackend } from '../../state/memory/memoryBackend.ts';
import { SubtaskRunner } from '../subtaskRunner.ts';
import type { RunnerHost } from '../subtaskRunner.ts';
import { applyChains, chainedRestore, viewChains } from '../chaining.ts';
import { placement, subtasksOn } from './assignment.ts';
import type { Placement } from './assignment.ts';
import { ChannelTable } from './channels.ts';
import { channelCredit } from './deploySpec.ts';
import { edgeShape } from '../outputPartitioning.ts';
import type { DeadLetterEpoch, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { DeploySpec, JobInput, OpenableInput, PeerFrame, UdfThrow, WorkerEvent, WorkerStats } from './protocol.ts';
import type { SourceEnv } from '../../core/source.ts';
import type { ByteInput } from '../../core/lineSource.ts';
import { KeyedTrail, encodeCommits, encodePreviews, packSnapshot, packViews } from './commitWire.ts';
import { RestoreError } from './restoreError.ts';
import { feedLog } from '../../engine/operators/feedSource.ts';
import type { FeedLog } from '../../engine/feedLog.ts';
import type { FeedSourceParams } from '../../pipeline/kinds/feedSource.ts';
import { SourcePace } from './sourcePace.ts';

/** What a host needs from the thread it runs in. */
export interface HostEnv {
  /** `transfer`: buffers inside `ev` that move to the receiver instead of being copied. */
  emit(ev: WorkerEvent, transfer?: Transferable[]): void;
  post(peer: number, frames: PeerFrame[], transfer: Transferable[]): void;
  /** Runs `cb` after the event loop had a turn (a MessageChannel hop, setImmediate in Node; never a clamped timer). */
  yieldNow(cb: () => void): void;
  after(ms: number, cb: () => void): () => void;
  clock: Clock;
  backend?: (p: Placement, time: StateTime) => KeyedStateBackend | undefined;
  /** Opens an input given by path (the Node workers of the CLI); without it such an input is refused. */
  openFile?: (input: OpenableInput) => ByteInput;
}

/** The inputs of this worker's sources, files by path opened here (each is then read in blocks). */
function openInputs(inputs: Record<string, JobInput>, openFile: HostEnv['openFile']): Record<string, SourceEnv['input']> {
  const out: Record<string, SourceEnv['input']> = {};
  for (const [id, input] of Object.entries(inputs)) {
    if (!('path' in input) && !('blob' in input)) out[id] = input;
    else if (openFile) out[id] = openFile(input);
    else throw new Error(`the input of "${id}" is the file ${'path' in input ? input.path : input.name}, and this worker cannot open it; give the file's contents instead`);
  }
  return out;
}

/** How long one slice of work may hold the thread before it yields. */
const SLICE_MS = 8;

const isUdfFailure = (reason: string): boolean => /^processing failed: |^timer at .* failed: /.test(reason);

/**
 * Runs the subtasks placed on one worker with the same SubtaskRunner the in-process cluster
 * uses. Channels inside the worker are direct; the others go over one port per peer worker,
 * batched per pass of the loop. The loop runs whatever is runnable for up to 8 ms, flushing the
 * ports after each pass, then yields, so control calls, credit and incoming frames are handled
 * promptly.
 */
export class WorkerHost {
  readonly runners: SubtaskRunner[] = [];
  private readonly byId = new Map<string, SubtaskRunner>();
  readonly channels: ChannelTable;
  private current: SubtaskRunner | null = null;
  private scheduled = false;
  private started = false;
  private stopped = false;
  private failed = false;
  private finishedSent = false;
  private cancelWake: (() => void) | null = null;
  private steps = 0;
  /** Sink changes for the preview stream, sent with the next flush. */
  private previews: { sinkId: string; origin: string; since: number; els: Element[] }[] = [];
  private busyMs = 0;
  /** Mirrors of the live feeds' logs on the job manager's thread, one per source subtask here. */
  private readonly feedMirrors = new Map<string, FeedLog[]>();
  /** Views on this worker that read their GROUP BY's groups (see chaining.ts). */
  private readonly chained: ReadonlySet<string>;
  /** Records per second each source subtask here may read (the designer's speed; 0 holds them). */
  private readonly pace: SourcePace;
  /** The keyed cells each subtask here last sent to the job manager: the next snapshot sends only what changed. */
  private readonly sentCells = new KeyedTrail();

  constructor(
    readonly plan: JobPlan,
    readonly spec: DeploySpec,
    private readonly env: HostEnv,
  ) {
    this.channels = new ChannelTable(spec.channelCapacity, spec.encoding);
    this.pace = new SourcePace(spec.sourcePace ?? null, env.clock);
    const host = this.runnerHost();
    const inputs = openInputs(spec.inputs, env.openFile);
    for (const p of subtasksOn(plan, spec.worker, spec.workers, spec.ownWorker)) {
      const backend = env.backend ? (time: StateTime) => env.backend!(p, time) ?? new MemoryStateBackend(time, plan.maxParallelism) : undefined;
      const readers = spec.feeds[p.node.id] ? { [p.node.id]: this.feedMirror(p.node.id, p.node.params as unknown as FeedSourceParams) } : undefined;
      const r = new SubtaskRunner({ plan, node: p.node, index: p.index, host, inputs, inputNames: spec.inputNames, readers, batchSize: spec.batchSize, backend, incremental: spec.incremental, maxRecordsPerCheckpoint: spec.maxRecordsPerCheckpoint ?? undefined, publishOutput: spec.publishOutput, ownsPlan: true });
      this.runners.push(r);
      this.byId.set(r.id, r);
    }
    // Worker i hosts subtask i of every node (slot sharing), so a view and its GROUP BY usually meet here.
    const byNode = new Map<string, SubtaskRunner[]>();
    for (const r of this.runners) byNode.set(r.node.id, [...(byNode.get(r.node.id) ?? []), r]);
    this.chained = new Set(applyChains(viewChains(plan, { enabled: spec.chain }), byNode).chains.map((c) => c.view));
    const me = spec.worker;
    const workerOf = placement(plan, spec.workers, spec.ownWorker);
    plan.edges.forEach((_, ei) => {
      const { from, to, how } = edgeShape(plan, ei);
      // A hash or rebalance edge splits each batch among its receivers: its channels carry smaller messages.
      const splits = how.partitioning === 'hash' || how.partitioning === 'rebalance';
      const capacity = channelCredit(spec, splits ? to.parallelism : 1);
      for (let f = 0; f < from.parallelism; f++) {
        const fw = workerOf(from.id, f);
        for (let t = 0; t < to.parallelism; t++) {
          const tw = workerOf(to.id, t);
          if (fw === me) this.channels.addOut(ei, f, t, tw === me ? null : tw, capacity);
          const target = tw === me ? this.byId.get(subtaskId(to.id, t))! : null;
          if (target && target.channelIndex(ei, f) >= 0) this.channels.addIn(ei, f, t, fw === me ? null : fw, target, capacity);
        }
      }
    });
    for (const t of spec.udfThrows) this.throwInUdfAt(t);
  }

  /** A source subtask's own copy of a feed's log (each split reads its positions of the whole log). */
  private feedMirror(node: string, params: FeedSourceParams): FeedLog {
    const log = feedLog(node, params, { retain: 1, session: '' });
    log.mirror(this.spec.feeds[node]);
    this.feedMirrors.set(node, [...(this.feedMirrors.get(node) ?? []), log]);
    return log;
  }

  /** New messages of a feed arrived on the job manager's thread. */
  feed(node: string, entries: readonly (string | number)[], ended: boolean): void {
    const logs = this.feedMirrors.get(node);
    if (!logs || this.stopped) return;
    for (const log of logs) log.append(entries, ended);
    this.schedule();
  }

  private runnerHost(): RunnerHost {
    const { env, spec } = this;
    return {
      clock: env.clock,
      hasCredit: (edge, from, to) => this.channels.hasCredit(edge, from, to),
      send: (edge, from, to, msg) => {
        if (!this.failed) this.channels.send(edge, from, to, msg);
      },
      snapshotTaken: (id, snap, timing, keyedWrite) => {
        if (this.failed) return;
        if (!keyedWrite) return this.emitSnapshot({ t: 'snapshot', attempt: spec.attempt, id, snap, timing });
        // A durable backend is still writing its chunks; the snapshot goes out with their handle.
        keyedWrite.then(
          (r) => {
            if (!this.failed) this.emitSnapshot({ t: 'snapshot', attempt: spec.attempt, id, snap: { ...snap, keyed: r.handle }, timing, keyedBytes: { full: r.fullBytes, written: r.writtenBytes } });
          },
          (e) => env.emit({ t: 'declined', attempt: spec.attempt, id, subtask: snap.subtask, reason: `writing keyed state failed: ${(e as Error).message}` }),
        );
      },
      declined: (id, subtask, reason) => env.emit({ t: 'declined', attempt: spec.attempt, id, subtask, reason }),
      publish: (sinkId, commits) => this.publish(sinkId, commits),
      publishDeadLetters: (epochs) => this.publishDeadLetters(epochs),
      deadLetter: (d, subtask) => this.deadLetter(d, subtask),
      preview: spec.preview ? (sinkId, origin, since, els) => this.previews.push({ sinkId, origin, since, els: [...els] }) : undefined,
    };
  }

  private publish(sinkId: string, commits: PendingCommit[]): void {
    if (!commits.length || this.failed) return;
    const transfer: Transferable[] = [];
    this.env.emit({ t: 'publish', attempt: this.spec.attempt, sinkId, commits: encodeCommits(commits, transfer) }, transfer);
  }

  private emitSnapshot(ev: Extract<WorkerEvent, { t: 'snapshot' }>): void {
    const transfer: Transferable[] = [];
    this.env.emit({ ...ev, ...packSnapshot(ev.snap, transfer, this.sentCells) }, transfer);
  }

  private publishDeadLetters(epochs: DeadLetterEpoch[]): void {
    if (epochs.length && !this.failed) this.env.emit({ t: 'deadLetters', attempt: this.spec.attempt, epochs });
  }

  /** With failOnUdfError a UDF exception stops the worker at once instead of dead-lettering the record. */
  private deadLetter(d: DeadLetter, subtask: string): boolean {
    if (this.failed) return false;
    if (this.spec.failOnUdfError && isUdfFailure(d.reason)) {
      this.fail();
      this.env.emit({ t: 'udfError', attempt: this.spec.attempt, subtask, reason: d.reason });
      return false;
    }
    return true;
  }

  /**
   * Restores every local subtask from all old snapshots of its node (the job master re-publishes
   * what they pre-committed). Durable backends load their chunks asynchronously: await `ready()` before `start()`.
   */
  restore(all: Record<string, SubtaskSnapshot[]>): void {
    // The job master rebuilt the rows of views checkpointed chained; views chained here take none.
    const byNode = chainedRestore(this.plan, all, this.chained);
    for (const r of this.runners) {
      const snaps = byNode[r.node.id];
      if (!snaps?.length) continue;
      this.current = r;
      try {
        r.restore(snaps);
      } catch (e) {
        throw new RestoreError(r.id, e);
      }
    }
    this.current = null;
  }

  ready(): Promise<unknown> {
    return Promise.all(this.runners.map((r) => r.ready.catch((e: unknown) => Promise.reject(new RestoreError(r.id, e)))));
  }

  start(): void {
    this.started = true;
    this.schedule();
  }

  receive(peer: number, frames: readonly PeerFrame[]): void {
    if (this.stopped) return;
    this.channels.receive(peer, frames);
    this.schedule();
  }

  trigger(id: number): void {
    for (const r of this.runners) {
      this.current = r;
      r.triggered(id);
    }
    this.current = null;
    this.schedule();
  }

  completed(id: number): void {
    // The manager published these epochs (sink output and dead letters) from the snapshots it holds: drop them, do not resend.
    for (const r of this.runners) r.checkpointCompleted(id, false);
  }

  finishJob(): void {
    for (const r of this.runners) r.jobFinished();
    const transfer: Transferable[] = [];
    this.env.emit({ t: 'final', attempt: this.spec.attempt, worker: this.spec.worker, views: packViews(this.views(), transfer) }, transfer);
  }

  stop(): void {
    this.stopped = true;
    this.cancelWake?.();
  }

  /** Stops all work at once: after a fatal UDF error nothing more may be acknowledged or sent. */
  private fail(): void {
    this.failed = true;
    this.stopped = true;
  }

  throwInUdfAt(t: UdfThrow): void {
    const r = this.byId.get(subtaskId(t.node, t.index));
    const op = r?.task?.operator;
    if (!op) return;
    const original = op.processElement.bind(op);
    // Counting records needs one call per record: the batch path is turned off for this operator.
    delete (op as { processBatch?: unknown }).processBatch;
    let seen = 0;
    (op as { processElement: typeof op.processElement }).processElement = (el: Element, port: string) => {
      if (++seen === t.n) {
        this.env.emit({ t: 'injectedFired', attempt: this.spec.attempt, node: t.node, index: t.index });
        throw new Error(`injected failure at record ${t.n} of ${r!.id}`);
      }
      return original(el, port);
    };
  }

  /** A new pace for this worker's source subtasks (null: as fast as possible, 0: hold them). */
  setPace(perSubtask: number | null): void {
    this.pace.set(perSubtask);
    this.schedule();
  }

  /** A source over its budget waits; a barrier it owes still leaves at once. */
  private paced(r: SubtaskRunner): boolean {
    return r.source !== null && !r.hasPendingBarrier() && !this.pace.mayRead(r.id);
  }

  private schedule(): void {
    if (this.scheduled || this.stopped || !this.started) return;
    this.scheduled = true;
    this.cancelWake?.();
    this.cancelWake = null;
    this.env.yieldNow(() => {
      this.scheduled = false;
      this.slice();
    });
  }

  private slice(): void {
    try {
      this.runSlice();
    } catch (e) {
      // An exception outside the operators' own guards (a runtime bug, a broken snapshot): fail loudly.
      const where = this.current ? `subtask ${this.current.id}` : `worker ${this.spec.worker}`;
      this.fail();
      // User code past its limits would only break the same way again after a restart.
      if (isCodeLimitError(e)) return this.env.emit({ t: 'failed', attempt: this.spec.attempt, worker: this.spec.worker, reason: e.message, fatal: true });
      this.env.emit({ t: 'failed', attempt: this.spec.attempt, worker: this.spec.worker, reason: `${where} crashed: ${(e as Error).message ?? e}` });
    }
  }

  private runSlice(): void {
    if (this.stopped) return;
    const t0 = performance.now();
    let worked = false;
    for (;;) {
      let any = false;
      for (const r of this.runners) {
        if (!r.runnable() || this.paced(r)) continue;
        this.current = r;
        const sent = r.recordsEmitted;
        r.runOne();
        if (r.source) this.pace.spent(r.id, r.recordsEmitted - sent);
        this.steps++;
        this.channels.reconcile(r);
        any = true;
        if (this.stopped) return;
      }
      this.current = null;
      worked ||= any;
      // Data and returned credit leave after every pass, not at the end of the slice: a peer
      // waiting for credit would otherwise wait for this whole slice.
      this.flush();
      if (!any || performance.now() - t0 > SLICE_MS) break;
    }
    this.busyMs += performance.now() - t0;
    if (!this.finishedSent && this.runners.every((r) => r.finished) && this.channels.drained()) {
      this.finishedSent = true;
      this.env.emit({ t: 'finished', attempt: this.spec.attempt, worker: this.spec.worker });
    }
    if (worked) this.schedule();
    else this.wakeForProcessingTimers();
  }

  private flush(): void {
    this.channels.flush((peer, frames, transfer) => this.env.post(peer, frames, transfer));
    if (this.previews.length && !this.failed) {
      const transfer: Transferable[] = [];
      this.env.emit({ t: 'preview', attempt: this.spec.attempt, changes: encodePreviews(this.previews, transfer) }, transfer);
      this.previews = [];
    }
  }

  /** Nothing is runnable: sleep until the earliest processing-time timer or source idle timeout, if any. */
  private wakeForProcessingTimers(): void {
    let next = Infinity;
    for (const r of this.runners) {
      if (r.finished) continue;
      if (r.task) next = Math.min(next, r.task.timers.nextTime('processing') ?? Infinity);
      else next = Math.min(next, r.idleDeadline() ?? Infinity, r.runnable() ? (this.pace.nextReadAt(r.id) ?? Infinity) : Infinity);
    }
    if (next === Infinity) return;
    this.cancelWake = this.env.after(Math.max(1, next - this.env.clock.now()), () => {
      this.cancelWake = null;
      this.schedule();
    });
  }

  /** This worker's part of every sink's table. */
  views(): Record<string, Row[]> {
    const out: Record<string, Row[]> = {};
    for (const r of this.runners) {
      if (!r.node.isSink) continue;
      const rows = (r.task?.operator as unknown as { rows(): Row[] }).rows();
      const list = (out[r.node.id] ??= []);
      for (const row of rows) list.push(row);
    }
    return out;
  }

  sourceOffsets(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.runners) if (r.source) out[r.id] = r.source.offset();
    return out;
  }

  stats(): WorkerStats {
    const nodes: WorkerStats['nodes'] = {};
    for (const r of this.runners) {
      const dl = r.deadLetterCount;
      const m: NodeMetrics = r.task
        ? r.task.metrics(dl)
        : { recordsIn: 0, recordsOut: r.recordsEmitted, watermark: r.source!.watermark(), counters: {}, deadLetters: dl, timers: 0 };
      const prev = nodes[r.node.id];
      if (!prev) nodes[r.node.id] = { ...m, subtasks: 1 };
      else {
        prev.recordsIn += m.recordsIn;
        prev.recordsOut += m.recordsOut;
        prev.watermark = Math.min(prev.watermark, m.watermark);
        prev.timers += m.timers;
        prev.deadLetters += m.deadLetters;
        prev.subtasks++;
        for (const [k, v] of Object.entries(m.counters)) prev.counters[k] = (prev.counters[k] ?? 0) + v;
      }
    }
    const edgeName = (i: number) => this.plan.edges[i].id;
    const { messagesSent, messagesReceived } = this.channels;
    return { worker: this.spec.worker, nodes, edges: this.channels.fill(edgeName), sourceOffsets: this.sourceOffsets(), steps: this.steps, busyMs: this.busyMs, messagesSent, messagesReceived };
  }
}
