import type { PipelineDocument } from '../pipeline/document.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { Row } from '../core/types.ts';
import { compile } from '../pipeline/compile.ts';
import type { ClusterEvent } from '../runtime/localCluster.ts';
import { DEFAULT_REQUEST } from '../runtime/observe/types.ts';
import type { Breakpoint, ObservationFrame, ObserveRequest, StateDiff } from '../runtime/observe/types.ts';
import type { InjectParse } from '../runtime/injectValues.ts';
import type { LoadOptions, LoadResult, Resumable, RunSnapshot, RunStatus, StepKind } from './protocol.ts';
import type { RunHistory } from '../runtime/runHistory.ts';
import { SessionTravel } from './sessionTravel.ts';
import type { SourceRows } from '../runtime/sourceRows.ts';
import { SinkSampler } from './sinkSampler.ts';
import { SinkCommits } from './sinkCommits.ts';
import { RunLog } from './runLog.ts';
import { clusterMetrics, loadCounts, recordsRead } from './clusterMetrics.ts';
import { LoadWindow } from './loadWindow.ts';
import type { NodeLoad } from './protocol.ts';
import { describeError, recordText } from './describe.ts';
import { findResumable } from './jobStorage.ts';
import { exportJobSavepoint } from './savepoints.ts';
import { deployJob, sinkRows } from './clusterJob.ts';
import { eventLine, feedLine } from './clusterEvents.ts';
import { RateMeter } from './rateMeter.ts';
import type { Job } from './clusterJob.ts';
import { Pacer } from './pacer.ts';
import { SessionChannel } from './sessionChannel.ts';

/** A barrier leaves a source within a few steps of its trigger; this only bounds a job that cannot checkpoint. */
const MAX_STEPS_TO_BARRIER = 100_000;
// 12.5 Hz at most while running: each snapshot costs the page a React render and a layout, and at
// 20 Hz that cost dropped frames on a 2-core machine; a step, pause or finish is posted at once.
const SNAPSHOT_MS = 80;

/**
 * One loaded job in the engine worker, on the parallel LocalCluster: paces it by wall clock,
 * takes checkpoints at a wall-clock interval, injects faults, travels back in time, and posts
 * what the designer shows (committed sink views, metrics, log, observation frames) at ≤ 20 Hz.
 */
export class ClusterSession extends SessionChannel {
  private job: Job | null = null;
  private sampler = new SinkSampler([], {});
  /** What each sink's committed view is as of, for the Results view. */
  private readonly commits = new SinkCommits();
  private status: RunStatus = 'idle';
  private checkpoints = 0;
  private restarts = 0;
  private error: RunSnapshot['error'] = null;
  private request: ObserveRequest = { ...DEFAULT_REQUEST };
  private readonly log = new RunLog(() => this.job?.cluster.clock.now() ?? 0);
  private readonly pacer = new Pacer({ work: (deadline) => this.work(deadline), after: () => this.afterTurn() });
  private readonly rate = new RateMeter();
  private readonly loadWindow = new LoadWindow();
  /** The last load figures measured while running; a paused job shows them unchanged. */
  private lastLoad: Record<string, NodeLoad> | undefined;
  /** Barrier messages put on any edge so far, and the last one: stepping by barrier stops at the next. */
  private barrierHops = 0;
  /** The checkpoint the current attempt restored (null: it started from the beginning): node counters are as of it. */
  private restoredFrom: number | null = null;
  private lastBarrier: { edge: string; from: string; to: string; checkpointId: number } | null = null;
  /** Snapshot credit: when on, running snapshots wait until the UI applied the previous one. */
  private frameBroken = false;
  /** The breakpoint that paused the run; frames carry it until the run resumes. */
  private lastHit: { node: string; row: Row } | null = null;
  /** Set while restoreTo runs, so its redeploy is not reported as a failure restart. */
  private travelling: number | null = null;
  /** Control calls that touch the cluster run one at a time, and so do the pacer's turns. */
  /** What was loaded, so stepping back can deploy the same job again and replay its history. */
  private loaded: { doc: PipelineDocument; opts: LoadOptions } | null = null;
  private breakpoints: Breakpoint[] = [];
  /** Stepping back and the scrubber: the run's timeline and the replays that reach its points. */
  private readonly travel = new SessionTravel({
    job: () => this.job,
    loaded: () => this.loaded,
    halt: () => {
      this.pacer.halt();
      this.status = 'paused';
    },
    redeploy: async (plan, doc, opts, rows) => {
      await this.teardown();
      this.resetCounters();
      return (this.job = await this.deploy(plan, doc, opts, true, rows));
    },
    guard: (work) => this.guard(work),
    traceEvery: (job, n) => this.traceEvery(job, n),
    travelling: (id) => void (this.travelling = id),
    warn: (message) => this.log.add('warn', message),
  });
  private readonly timeline = this.travel.timeline;

  load(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
    return this.serial(() => this.loadNow(doc, opts));
  }

  private async loadNow(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
    await this.teardown();
    this.pacer.configure(opts.speed, opts.checkpointIntervalMs);
    const { plan, problems } = compile(doc);
    if (!plan) return { ok: false, problems, message: `the pipeline has ${problems.length} problem(s); see Problems` };
    this.reset();
    this.loaded = { doc, opts };
    this.travel.clear();
    try {
      this.job = await this.deploy(plan, doc, opts);
    } catch (e) {
      const err = describeError(e, plan);
      this.status = 'failed';
      this.error = err;
      this.log.add('error', `could not start: ${err.message}`, err.node);
      this.post(true);
      return { ok: false, problems: [], message: err.message };
    }
    this.status = 'ready';
    const subtasks = plan.nodes.reduce((n, x) => n + x.parallelism, 0);
    this.log.add('info', `job loaded: ${plan.nodes.length} operators in ${subtasks} subtasks, ${plan.edges.length} edges, ${this.job.backend === 'indexeddb' ? 'IndexedDB' : 'memory'} state`);
    this.post(true);
    return { ok: true, sinks: plan.nodes.filter((n) => n.isSink).map((n) => n.id) };
  }

  /** A fresh sampler and job; the observer gets the breakpoints set so far. */
  private async deploy(plan: JobPlan, doc: PipelineDocument, opts: LoadOptions, keepWindows = false, rows?: SourceRows): Promise<Job> {
    const sinks = plan.nodes.filter((n) => n.isSink);
    this.sampler = new SinkSampler(
      sinks.map((n) => n.id),
      Object.fromEntries(sinks.map((n) => [n.id, n.inputs.in?.fields ?? null])),
      Object.fromEntries(sinks.map((n) => [n.id, (n.params.primaryKey as string[] | undefined) ?? n.inputs.in?.uniqueKey ?? null])),
      keepWindows ? this.sampler : undefined,
    );
    const job = await deployJob(plan, doc, opts, {
      onPublish: (sinkId, els) => this.sampler.onOutput(sinkId, els),
      onEvent: (job, e) => this.onClusterEvent(job, e),
      info: (m) => this.travel.replaying || this.log.add('info', m),
      feedChanged: (node, s) => {
        const line = feedLine(node, s);
        if (line && !this.travel.replaying) this.log.add(line.level, line.message, node);
        this.post(this.status !== 'running');
      },
    }, rows);
    if (this.breakpoints.length) job.observer.setBreakpoints(this.breakpoints);
    return job;
  }

  private reset(): void {
    this.resetCounters();
    this.rate.reset();
    this.loadWindow.reset();
    this.lastLoad = undefined;
    this.frameBroken = false;
    this.log.restart();
  }

  /** What the cluster's events build up: a replay of the history builds it up again. */
  private resetCounters(): void {
    this.checkpoints = 0;
    this.restarts = 0;
    this.barrierHops = 0;
    this.lastBarrier = null;
    this.lastHit = null;
    this.restoredFrom = null;
    this.error = null;
    this.commits.reset();
  }

  /**
   * Stops the pacer and releases the job's storage, so the next run (or another tab) can claim it.
   * Called in the control queue: a turn under way finished before, and later ones find no job.
   */
  private async teardown(): Promise<void> {
    this.pacer.halt();
    const job = this.job;
    this.job = null;
    job?.observer.detach();
    job?.feeds.stop('the run was stopped');
    if (job) await job.storage.close(job.cluster).catch(() => undefined);
  }

  private onClusterEvent(job: Job, e: ClusterEvent): void {
    const line = this.travel.replaying ? null : eventLine(e, recordsRead(job.cluster), this.travelling !== null);
    if (line) this.log.add(line.level, line.message, line.node);
    if (e.type === 'checkpoint' && e.status === 'completed') {
      this.checkpoints++;
      this.commits.completed(e.checkpointId);
    }
    if (e.type === 'snapshot') {
      const r = job.cluster.subtasks().find((s) => s.id === e.subtask);
      if (r?.node.isSink && r.task) this.commits.snapshot(e.checkpointId, r.id, r.node.id, r.task.metrics(0).recordsIn);
    }
    if (e.type === 'finished') this.commits.finished();
    if (e.type === 'message' && e.kind === 'barrier') {
      this.barrierHops++;
      this.lastBarrier = { edge: e.edge, from: e.from, to: e.to, checkpointId: e.checkpointId ?? 0 };
    }
    if (e.type === 'restored') {
      this.restoredFrom = e.checkpointId;
      // The committed view is exactly the restored sink state: epochs after the checkpoint are gone.
      for (const [id, view] of job.views) view.reset(sinkRows(job.cluster, id));
      const restoredIn = clusterMetrics(job.cluster, []);
      this.commits.restored(e.checkpointId, Object.fromEntries([...job.views.keys()].map((id) => [id, restoredIn[id]?.recordsIn ?? 0])));
      this.sampler.markAllDirty();
      if (e.attempt > 1 && this.travelling === null) this.restarts++;
    }
    if (e.type === 'failed') {
      this.status = 'failed';
      this.error = { message: e.reason };
    }
  }

  run(): void {
    if (!this.job || this.status === 'finished' || this.status === 'failed' || this.status === 'running') return;
    this.status = 'running';
    this.lastHit = null;
    // Figures cover running time only: a pause is not idle time of the operators.
    this.loadWindow.reset();
    this.diverge(this.job);
    // Fast runs trace a sample of records; slow ones (and steps) every record, so each can be followed.
    this.traceEvery(this.job, this.pacer.speed !== null && this.pacer.speed <= 50 ? 1 : 100);
    this.pacer.start();
    this.post(true);
  }

  pause(): void {
    if (this.status !== 'running') return;
    this.pacer.halt();
    this.status = 'paused';
    this.post(true);
  }

  /**
   * One turn of the pacer: advances the cluster until the deadline or the speed budget is spent.
   * In the control queue, so a kill, an injection or a checkpoint by hand lands between steps,
   * where the run's history records it and a replay repeats it.
   */
  private work(deadline: number): Promise<void> {
    return this.serial(async () => {
      const job = this.job;
      if (!job || this.status !== 'running') return;
      await this.guard(() => this.pacer.advance(job.cluster, deadline, () => this.breakpointHit()));
    });
  }

  /** The tracing rate changes what the observatory shows: the history keeps it for replays. */
  private traceEvery(job: Job, n: number): void {
    if (job.observer.traceEvery === n) return;
    job.observer.traceEvery = n;
    job.cluster.history.control({ t: 'tag', name: 'traceEvery', value: n });
  }

  /** Something new happens at this point: the future the person stepped back from is dropped. */
  private diverge(job: Job): void {
    this.timeline.diverge(job.cluster.stepCount());
  }

  private afterTurn(): boolean {
    this.settle();
    // In the control queue, so between steps even when a restore is under way: the history records it there.
    const job = this.job;
    if (job && this.status === 'running' && this.pacer.checkpointDue(performance.now())) {
      void this.serial(async () => {
        if (this.job === job && this.status === 'running') job.cluster.triggerCheckpoint();
      });
    }
    // The last snapshot of a run (finished, failed, breakpoint) must always go out.
    this.post(this.status !== 'running');
    return this.status === 'running';
  }

  private breakpointHit(): boolean {
    const hit = this.job?.observer.hit();
    if (!hit) return false;
    this.lastHit = hit;
    this.status = 'paused';
    this.log.add('warn', `breakpoint hit at "${hit.node}"; paused`, hit.node, recordText(hit.row));
    return true;
  }

  step(kind: StepKind = 'record'): Promise<void> {
    return this.serial(async () => {
      const job = this.job;
      if (!job || this.status === 'finished' || this.status === 'failed') return;
      this.status = 'paused';
      // Turns run in this queue: one already under way finished before this; later ones see the pause.
      this.pacer.halt();
      this.diverge(job);
      this.traceEvery(job, 1);
      const before = recordsRead(job.cluster);
      await this.guard(async () => {
        let what: string;
        if (kind === 'barrier') {
          const b = await this.stepToBarrier(job);
          what = b ? `checkpoint ${b.checkpointId}'s barrier is on edge ${b.edge} (${b.from} → ${b.to})` : 'no barrier left';
        } else {
          const r = await job.cluster.stepUntil(kind);
          const read = recordsRead(job.cluster);
          what = kind === 'record' ? (read > before ? `read record ${read}` : 'no record left to read') : r.reached ? `one ${kind} passed` : `no ${kind} left`;
        }
        this.breakpointHit();
        this.log.add('info', `step (${kind}): ${what}`);
      });
      this.settle();
      this.post(true);
    });
  }

  /**
   * Steps until a barrier is put on any edge and stops there, so the canvas shows it queued on that
   * edge; the next press moves it one hop on. A paused job has no wall-clock interval to start a
   * checkpoint, so stepping by barrier starts one when none is in flight (the interval would have).
   */
  private async stepToBarrier(job: Job): Promise<ClusterSession['lastBarrier']> {
    const cluster = job.cluster;
    await cluster.start();
    const before = this.barrierHops;
    for (let steps = 0; steps < MAX_STEPS_TO_BARRIER && this.barrierHops === before; steps++) {
      if (cluster.inFlightCheckpoint() === null) cluster.triggerCheckpoint();
      if ((await cluster.step()) !== 'running') break;
    }
    return this.barrierHops > before ? this.lastBarrier : null;
  }

  /** Back one record, watermark or barrier: to the point the run showed just before it. */
  stepBack(kind: StepKind = 'record'): Promise<void> {
    return this.serial(async () => {
      const job = this.job;
      if (!job) return;
      const full = this.timeline.full(job.cluster.history);
      const to = this.timeline.back(kind, job.cluster.stepCount(), full);
      if (to === null) this.log.add('info', `step back (${kind}): already at the start of the run`);
      else if (await this.travelTo(job, to, full)) this.log.add('info', `step back (${kind}): at step ${to} of ${full.end}, ${recordsRead(this.job!.cluster)} records read`);
      this.post(true);
    });
  }

  /** The scrubber: to any point from the start to the furthest the run has reached. */
  seek(step: number): Promise<void> {
    return this.serial(async () => {
      const job = this.job;
      if (!job) return;
      const full = this.timeline.full(job.cluster.history);
      const to = Math.max(0, Math.min(full.end, Math.round(step)));
      if (to !== job.cluster.stepCount() && (await this.travelTo(job, to, full))) this.log.add('info', `moved to step ${to} of ${full.end}: ${recordsRead(this.job!.cluster)} records read`);
      this.post(true);
    });
  }

  /**
   * To point `to` of the history (sessionTravel.ts), then the status the run has there. False (and
   * logged) when it cannot.
   */
  private async travelTo(job: Job, to: number, full: RunHistory): Promise<boolean> {
    const target = await this.travel.travelTo(job, to, full);
    if (!target) return false;
    // What the replay logged the first time is in the log already.
    this.log.skipDeadLetters(target.cluster.deadLetters().length);
    target.observer.hit();
    this.lastHit = null;
    const phase = target.cluster.phaseNow();
    if (phase === 'finished') this.status = 'finished';
    // The guard may have failed the replay, as the step it repeats failed the first time.
    else if (phase === 'failed' || (this.status as RunStatus) === 'failed') this.status = 'failed';
    else {
      this.error = null;
      // At the start the job is as loaded: ready to run.
      if (target.cluster.stepCount() === 0) this.status = 'ready';
    }
    return true;
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      if (!this.job) return;
      await this.teardown();
      this.travel.clear();
      this.status = 'idle';
      this.log.add('info', 'job stopped');
      this.post(true);
    });
  }

  setSpeed(speed: number | null): void {
    this.pacer.configure(speed, this.pacer.checkpointMs);
  }

  setCheckpointInterval(ms: number | null): void {
    this.pacer.configure(this.pacer.speed, ms);
  }

  setSinkWindow(id: string, offset: number, limit: number): void {
    this.sampler.setWindow(id, offset, limit);
    this.post(true);
  }

  killSubtask(subtask: string): void {
    const job = this.job;
    if (!job) return;
    const id = subtask.includes('#') ? subtask : `${subtask}#0`;
    if (!job.cluster.subtasks().some((r) => r.id === id)) {
      this.log.add('error', `cannot kill "${subtask}": no such subtask; pick one of ${job.cluster.subtasks().map((r) => r.id).join(', ')}`);
      return this.post(true);
    }
    // Between steps (the control queue), so the history records the kill where it landed.
    void this.serial(async () => {
      if (this.job !== job) return;
      this.diverge(job);
      job.cluster.kill(id);
      this.log.add('warn', `subtask ${id} killed (fault injection); the job restarts from its latest checkpoint`, id.slice(0, id.lastIndexOf('#')));
      // A paused or finished job still has to notice the kill: take one step.
      if (this.status !== 'running') await this.guard(async () => void (await job.cluster.step()));
      this.post(true);
    });
  }

  triggerCheckpoint(): void {
    void this.serial(async () => {
      const job = this.job;
      if (job) this.diverge(job);
      const id = job?.cluster.triggerCheckpoint();
      if (id === null) this.log.add('info', 'a checkpoint is already in flight; try again when it completes');
      else if (id !== undefined) this.log.add('info', `checkpoint ${id} triggered by hand`);
      this.post(true);
    });
  }

  /** Between steps, so a restore or a step never sees half an append. */
  inject(source: string, values: Record<string, string>): Promise<InjectParse> {
    return this.serial(async () => {
      const job = this.job;
      if (!job) throw new Error('no job is running: step or run the pipeline, then inject records into one of its sources');
      this.diverge(job);
      const parsed = job.cluster.inject(source, values);
      if (parsed.ok) this.log.add('info', `record injected into ${source}: ${JSON.stringify(parsed.row)}`, source);
      this.post(true);
      return parsed;
    });
  }

  restoreTo(checkpointId: number): Promise<void> {
    return this.serial(async () => {
      const job = this.job;
      if (!job) throw new Error('no job is loaded');
      const wasRunning = this.status === 'running';
      this.pacer.halt();
      this.diverge(job);
      this.travelling = checkpointId;
      try {
        await job.cluster.restoreTo(checkpointId);
      } finally {
        this.travelling = null;
      }
      this.error = null;
      this.log.add('info', `travelled back to checkpoint ${checkpointId}: ${recordsRead(job.cluster)} records read at that point`);
      this.status = wasRunning ? 'running' : 'paused';
      if (wasRunning) this.pacer.start();
      this.post(true);
    });
  }

  diffCheckpoints(from: number, to: number): Promise<StateDiff> {
    const job = this.job;
    if (!job) return Promise.reject(new Error('no job is loaded'));
    return job.observer.diff(from, to);
  }

  exportSavepoint(checkpointId: number): Promise<Uint8Array> {
    const job = this.job;
    if (!job) return Promise.reject(new Error('no job is loaded'));
    return exportJobSavepoint(job.storage.store, job.jobId, checkpointId, job.cluster);
  }

  resumable(jobId: string): Promise<Resumable | null> {
    return findResumable(jobId);
  }

  setBreakpoints(bps: Breakpoint[]): { node: string; message: string }[] {
    this.breakpoints = bps;
    return this.job?.observer.setBreakpoints(bps) ?? bps.map((b) => ({ node: b.node, message: 'load the job first' }));
  }

  observe(req: Partial<ObserveRequest>): void {
    this.request = { ...this.request, ...req };
    this.post(true);
  }

  /** Runs cluster work; a throw that is not a fault the cluster recovers from fails the job with the node named. */
  private async guard(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (e) {
      this.pacer.halt();
      const err = describeError(e, this.job?.plan ?? null);
      this.error = err;
      this.status = 'failed';
      this.log.add('error', `job failed: ${err.message}`, err.node);
    }
  }

  /** Dead letters into the log; the cluster's own end (finished or failed) into the status. */
  private settle(): void {
    const job = this.job;
    if (!job) return;
    this.log.deadLetters(job.cluster.deadLetters());
    const phase = job.cluster.phaseNow();
    if (phase === 'finished' && this.status !== 'finished' && this.status !== 'failed') {
      this.pacer.halt();
      this.status = 'finished';
      this.log.add('info', `job finished: ${recordsRead(job.cluster)} records read${this.restarts ? `, ${this.restarts} restart(s)` : ''}`);
      void job.storage.store.markFinished(job.jobId).catch((e) => this.log.add('warn', `could not mark the job finished in its checkpoint store: ${(e as Error).message}`));
    } else if (phase === 'failed') {
      this.pacer.halt();
      this.status = 'failed';
    }
  }

  private frame(): ObservationFrame | null {
    const job = this.job;
    if (!job || this.frameBroken) return null;
    try {
      const frame = job.observer.frame(this.request);
      if (frame.state) this.timeline.looked(job.cluster.stepCount(), frame.state.node, this.request.subtask);
      return this.lastHit && !frame.breakpointHit ? { ...frame, breakpointHit: this.lastHit } : frame;
    } catch (e) {
      // The run must go on without the observatory; say once why its panels are empty.
      this.frameBroken = true;
      this.log.add('warn', `observatory unavailable for this run: ${(e as Error).message}`);
      return null;
    }
  }

  private post(force: boolean): void {
    const now = performance.now();
    if (!this.mayPost(now, force, SNAPSHOT_MS)) return;
    const job = this.job;
    const records = job ? recordsRead(job.cluster) : 0;
    const rate = this.rate.sample(now, records);
    const metrics = job ? clusterMetrics(job.cluster, job.cluster.deadLetters()) : {};
    if (job && this.status === 'running') {
      const counts = loadCounts(job.cluster, metrics);
      if (counts) this.lastLoad = this.loadWindow.sample(now, counts);
    }
    const read = job ? (id: string) => job.views.get(id)?.rows() ?? [] : null;
    const frame = this.frame();
    if (job && this.status !== 'running') this.timeline.rest(job.cluster.stepCount());
    this.listener({
      status: this.status,
      records,
      rate: this.status === 'running' ? rate : 0,
      clockMs: job?.cluster.clock.now() ?? 0,
      metrics,
      load: this.lastLoad,
      deadLetters: Object.fromEntries(Object.entries(metrics).map(([k, m]) => [k, m.deadLetters])),
      sinks: this.sampler.sample(read, now, force || this.status !== 'running', (id) => this.commits.of(id, metrics[id]?.recordsIn ?? 0), this.heldRows),
      log: this.log.take(),
      checkpoints: this.checkpoints,
      error: this.error,
      restarts: this.restarts,
      restoredFrom: this.restoredFrom,
      frame,
      history: job ? this.timeline.view(job.cluster.stepCount(), job.cluster.history, this.loaded?.opts.resume ? 'resumed' : null) : null,
      feeds: job?.feeds.statuses() ?? {},
    });
  }
}
