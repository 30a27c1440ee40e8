import type { PipelineDocument } from '../pipeline/document.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { DeadLetter } from '../core/types.ts';
import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { CheckpointStore } from '../checkpoint/types.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { compile } from '../pipeline/compile.ts';
import { codeLimitsOf } from '../engine/codeHost.ts';
import type { JobManager } from '../runtime/threaded/jobManager.ts';
import type { JobOptions, JobResult, JobStats } from '../runtime/threaded/jobOptions.ts';
import type { ObservationFrame } from '../runtime/observe/types.ts';
import type { LoadOptions, LoadResult, RunSnapshot, RunStatus } from './protocol.ts';
import { CommittedView } from './committedView.ts';
import { SinkSampler } from './sinkSampler.ts';
import { RunLog } from './runLog.ts';
import { RateMeter } from './rateMeter.ts';
import { Pacer } from './pacer.ts';
import { ManagerLog } from './workersEvents.ts';
import { inProcessOnly, unsupportedOnWorkers } from './runtimeChoice.ts';
import { SessionChannel } from './sessionChannel.ts';

/** Stats are a comlink round trip to every worker: ten times a second is plenty for the status and counters. */
const POLL_MS = 100;

/** A job on worker threads under the one job master: BrowserJob in the designer, any JobManager in tests. */
export interface ParallelJob {
  readonly manager: JobManager;
  run(): Promise<JobResult>;
  dispose(): Promise<void>;
}

export type ParallelJobOptions = Omit<JobOptions, 'spawn' | 'prewarm'> & { store: CheckpointStore };

export interface WorkersSessionDeps {
  /** Starts the job's workers (not yet its run): `new BrowserJob(doc, opts)` in the engine worker. */
  start(doc: PipelineDocument, opts: ParallelJobOptions): ParallelJob;
  /** The durable checkpoint store for `state: indexeddb` (the one a reloaded page offers to resume from). */
  durableStore?: () => CheckpointStore & { markFinished?(jobId: string): Promise<void> };
  now?: () => number;
}

/**
 * One loaded job in the engine worker, run on worker threads (one per subtask slot) by the
 * threaded JobManager: the same job master, checkpoints, restarts and exactly-once publication as
 * the CLI's --parallelism runs. It posts the same RunSnapshot as ClusterSession, so the UI has one
 * code path: status, counters (from the workers' stats), committed sink views, the checkpoint list,
 * the log. What needs the operators' state in this thread (stepping, time travel, state tables,
 * join buffers, window panes, traces) is refused with the way to get it: run in one worker.
 */
export class WorkersSession extends SessionChannel {
  private job: ParallelJob | null = null;
  private plan: JobPlan | null = null;
  private jobId = '';
  private backend: 'memory' | 'indexeddb' = 'memory';
  private store: (CheckpointStore & { markFinished?(jobId: string): Promise<void> }) | null = null;
  private status: RunStatus = 'idle';
  private error: RunSnapshot['error'] = null;
  private stats: JobStats | null = null;
  private speed: number | null = null;
  private startedAt = 0;
  private views = new Map<string, CommittedView>();
  private sampler = new SinkSampler([], {});
  /** Dead letters as the job master published them: once per epoch, a recovery replays none. */
  private dead: DeadLetter[] = [];
  private loggedCheckpoints = new Set<number>();
  private readonly log: RunLog;
  private managerLog = new ManagerLog();
  private readonly rate = new RateMeter();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: WorkersSessionDeps) {
    super();
    this.now = deps.now ?? (() => performance.now());
    this.log = new RunLog(() => (this.startedAt ? this.now() - this.startedAt : 0));
  }

  load(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
    return this.serial(() => this.loadNow(doc, opts));
  }

  private async loadNow(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
    await this.teardown();
    const { plan, problems } = compile(doc);
    if (!plan) return { ok: false, problems, message: `the pipeline has ${problems.length} problem(s); see Problems` };
    const refused = unsupportedOnWorkers(plan, opts);
    if (refused) return { ok: false, problems: [], message: refused };
    this.reset(plan);
    this.speed = opts.speed;
    this.jobId = opts.jobId ?? doc.name;
    this.backend = opts.backend ?? doc.settings?.stateBackend ?? 'memory';
    this.store = this.backend === 'indexeddb' && this.deps.durableStore ? this.deps.durableStore() : new MemoryCheckpointStore({ ownership: 'handover' });
    try {
      this.job = this.deps.start(doc, {
        jobId: this.jobId,
        store: this.store,
        state: this.backend,
        resume: opts.resume,
        checkpointIntervalMs: opts.checkpointIntervalMs,
        retain: doc.settings?.checkpoint?.retain ?? 5,
        batchSize: Pacer.batchSizeFor(opts.speed),
        codeLimits: codeLimitsOf(doc.settings),
        // The files the person gave cross to the source's worker as Blobs, read there in blocks.
        inputs: opts.files ? Object.fromEntries(Object.entries(opts.files).map(([id, f]) => [id, { name: f.name, blob: f.blob }])) : undefined,
        // Held until Run: the workers start at once, the sources read nothing before.
        pace: 0,
        keepChangelog: false,
        onPublish: (sinkId, commit) => {
          this.views.get(sinkId)?.apply(commit.els);
          this.sampler.onOutput(sinkId, commit.els);
        },
        onDeadLetters: (epoch) => void this.dead.push(...epoch.items),
        // The committed tables are the restored sink tables: after a resume in a new page nothing
        // published before the checkpoint is here, and after a restart this drops nothing real.
        onRestoredViews: (_id, views) => {
          for (const [sink, view] of this.views) view.reset(views[sink] ?? []);
          this.sampler.markAllDirty();
        },
        log: (line) => this.managerLine(line),
      });
    } catch (e) {
      this.status = 'failed';
      this.error = { message: (e as Error).message };
      this.log.add('error', `could not start: ${this.error.message}`);
      this.post(true);
      return { ok: false, problems: [], message: this.error.message };
    }
    this.status = 'ready';
    const subtasks = plan.nodes.reduce((n, x) => n + x.parallelism, 0);
    this.log.add('info', `job loaded: ${plan.nodes.length} operators in ${subtasks} subtasks on ${this.job.manager.workers} Web Workers, ${this.backend === 'indexeddb' ? 'IndexedDB' : 'memory'} state`);
    this.post(true);
    return { ok: true, sinks: plan.nodes.filter((n) => n.isSink).map((n) => n.id) };
  }

  private reset(plan: JobPlan): void {
    this.plan = plan;
    const sinks = plan.nodes.filter((n) => n.isSink);
    const keyOf = (n: JobPlan['nodes'][number]) => (n.params.primaryKey as string[] | undefined) ?? n.inputs.in?.uniqueKey ?? null;
    this.views = new Map(sinks.map((n) => [n.id, new CommittedView(keyOf(n))]));
    this.sampler = new SinkSampler(
      sinks.map((n) => n.id),
      Object.fromEntries(sinks.map((n) => [n.id, n.inputs.in?.fields ?? null])),
      Object.fromEntries(sinks.map((n) => [n.id, keyOf(n)])),
      this.sampler,
    );
    this.dead = [];
    this.stats = null;
    this.error = null;
    this.loggedCheckpoints = new Set();
    this.managerLog = new ManagerLog();
    this.rate.reset();
    this.log.restart();
    this.startedAt = 0;
  }

  private managerLine(text: string): void {
    const line = this.managerLog.line(text);
    if (line) this.log.add(line.level, line.message, line.node);
  }

  run(): void {
    const job = this.job;
    if (!job || this.status === 'running' || this.status === 'finished' || this.status === 'failed') return;
    job.manager.setPace(this.speed);
    if (this.status === 'ready') {
      this.startedAt = this.now();
      void job.run().then(
        (res) => this.ended(job, res),
        (e: unknown) => this.ended(job, { status: 'failed', reason: (e as Error).message } as JobResult),
      );
    }
    this.status = 'running';
    this.schedulePoll(0);
    this.post(true);
  }

  pause(): void {
    if (this.status !== 'running' || !this.job) return;
    // The sources hold; what they sent drains through the job and checkpoints still complete.
    this.job.manager.setPace(0);
    this.status = 'paused';
    this.post(true);
  }

  setSpeed(speed: number | null): void {
    this.speed = speed;
    if (this.status === 'running') this.job?.manager.setPace(speed);
  }

  setCheckpointInterval(ms: number | null): void {
    this.job?.manager.setCheckpointInterval(ms);
  }

  setSinkWindow(id: string, offset: number, limit: number): void {
    this.sampler.setWindow(id, offset, limit);
    this.post(true);
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      if (!this.job) return;
      await this.teardown();
      this.status = 'idle';
      this.log.add('info', 'job stopped');
      this.post(true);
    });
  }

  /** Stops the workers without a word: another session takes over the engine worker. */
  unload(): Promise<void> {
    return this.serial(() => this.teardown());
  }

  private async teardown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const job = this.job;
    this.job = null;
    await job?.dispose().catch(() => undefined);
  }

  killSubtask(subtask: string): void {
    const job = this.job;
    const plan = this.plan;
    if (!job || !plan) return;
    const id = subtask.includes('#') ? subtask : `${subtask}#0`;
    const all = plan.nodes.flatMap((n) => Array.from({ length: n.parallelism }, (_, i) => `${n.id}#${i}`));
    if (!all.includes(id)) {
      this.log.add('error', `cannot kill "${subtask}": no such subtask; pick one of ${all.join(', ')}`);
      return this.post(true);
    }
    if (!job.manager.killSubtask(id)) this.log.add('info', `cannot kill ${id} now: the job's workers are not running (run it first, or wait for the restart under way)`);
    else this.log.add('warn', `subtask ${id} killed (fault injection: its Web Worker was terminated with every subtask on it); the job restarts from its latest checkpoint`, id.slice(0, id.lastIndexOf('#')));
    this.post(true);
  }

  triggerCheckpoint(): void {
    const job = this.job;
    if (!job) return;
    const id = job.manager.triggerCheckpoint();
    this.log.add('info', id === null ? 'no checkpoint now: one is in flight, or the workers are not running; try again in a moment' : `checkpoint ${id} triggered by hand`);
    this.post(true);
  }

  /** A control that needs the in-process runtime: logged (and rejected) with the way to get it. */
  refuse(what: string): Error {
    const message = inProcessOnly(what);
    this.log.add('warn', message);
    this.post(true);
    return new Error(message);
  }

  private ended(job: ParallelJob, res: JobResult): void {
    if (this.job !== job) return;
    if (res.stats && Object.keys(res.stats.nodes).length) this.stats = res.stats;
    this.noteCheckpoints();
    if (res.status === 'finished') {
      this.status = 'finished';
      this.checkFinalViews(res);
      const restarts = res.restarts;
      this.log.add('info', `job finished: ${this.recordsRead()} records read${restarts ? `, ${restarts} restart(s)` : ''}`);
      void this.store?.markFinished?.(this.jobId).catch((e: unknown) => this.log.add('warn', `could not mark the job finished in its checkpoint store: ${(e as Error).message}`));
    } else {
      this.status = 'failed';
      const reason = res.reason ?? 'the job failed';
      this.error = { message: reason, node: /subtask (\S+)#\d+/.exec(reason)?.[1] ?? /^node "([^"]+)"/.exec(reason)?.[1] };
      this.log.add('error', `job failed for good: ${this.error.message}`, this.error.node);
    }
    this.post(true);
  }

  /** The committed views were built from published epochs; the job's final views must agree with them. */
  private checkFinalViews(res: JobResult): void {
    for (const [sink, view] of this.views) {
      const committed = view.rows().length;
      const final = res.views[sink]?.length ?? 0;
      if (committed !== final) this.log.add('warn', `sink ${sink}: the committed output holds ${committed} rows but the job ended with ${final}`, sink);
    }
  }

  private schedulePoll(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delay);
  }

  private async poll(): Promise<void> {
    this.timer = null;
    const job = this.job;
    if (!job || (this.status !== 'running' && this.status !== 'paused')) return;
    try {
      const s = await job.manager.stats();
      // Between attempts the workers are gone: the counters shown stay those of the last attempt.
      if (Object.keys(s.nodes).length) this.stats = s;
      else if (this.stats) this.stats = { ...this.stats, restarts: s.restarts, checkpoints: s.checkpoints };
    } catch {
      // A worker that does not answer is the heartbeat's business; the next poll asks again.
    }
    if (this.job !== job) return;
    this.noteCheckpoints();
    this.post(false);
    if (this.status === 'running' || this.status === 'paused') this.schedulePoll(POLL_MS);
  }

  private noteCheckpoints(): void {
    for (const c of this.job?.manager.checkpointHistory() ?? []) {
      if (c.status !== 'completed' || this.loggedCheckpoints.has(c.checkpointId)) continue;
      this.loggedCheckpoints.add(c.checkpointId);
      this.log.add('info', `checkpoint ${c.checkpointId} completed`);
    }
  }

  /** Per node, the workers' counters; dead letters as published, so a recovery never counts one twice. */
  private metrics(): Record<string, NodeMetrics> {
    const byNode = new Map<string, number>();
    for (const d of this.dead) byNode.set(d.nodeId, (byNode.get(d.nodeId) ?? 0) + 1);
    const out: Record<string, NodeMetrics> = {};
    for (const [id, m] of Object.entries(this.stats?.nodes ?? {})) {
      const { subtasks: _subtasks, ...metrics } = m;
      out[id] = { ...metrics, counters: { ...metrics.counters }, deadLetters: byNode.get(id) ?? 0 };
    }
    return out;
  }

  /** Source records read: what the sources sent on, and what they dead-lettered. */
  private recordsRead(): number {
    let n = 0;
    for (const node of this.plan?.nodes ?? []) {
      const m = this.stats?.nodes[node.id];
      if (node.isSource && m) n += m.recordsOut + m.deadLetters;
    }
    return n;
  }

  private frame(): ObservationFrame | null {
    const job = this.job;
    if (!job) return null;
    const checkpoints = job.manager.checkpointHistory();
    const at = this.startedAt ? this.now() - this.startedAt : 0;
    return { at, edges: [], nodes: [], state: null, join: null, window: null, sources: [], checkpoints, inFlightCheckpoint: checkpoints.find((c) => c.status === 'pending')?.checkpointId ?? null, trace: [], query: null, breakpointHit: null };
  }

  private post(force: boolean): void {
    const now = this.now();
    if (!this.mayPost(now, force)) return;
    const job = this.job;
    const records = this.recordsRead();
    const rate = this.rate.sample(now, records);
    const metrics = this.metrics();
    const read = job ? (id: string) => this.views.get(id)?.rows() ?? [] : null;
    this.listener({
      status: this.status,
      records,
      rate: this.status === 'running' ? rate : 0,
      clockMs: this.startedAt ? now - this.startedAt : 0,
      metrics,
      deadLetters: Object.fromEntries(Object.entries(metrics).map(([k, m]) => [k, m.deadLetters])),
      sinks: this.sampler.sample(read, now, force || this.status !== 'running', undefined, this.heldRows),
      log: this.takeLog(),
      checkpoints: (job?.manager.checkpointHistory() ?? []).filter((c) => c.status === 'completed').length,
      error: this.error,
      restarts: this.stats?.restarts ?? 0,
      restoredFrom: this.managerLog.restoredFrom,
      frame: this.frame(),
      history: null,
      feeds: {},
      runsOn: 'workers',
      threads: job?.manager.workers ?? 0,
    });
  }

  private takeLog() {
    this.log.deadLetters(this.dead);
    return this.log.take();
  }
}
