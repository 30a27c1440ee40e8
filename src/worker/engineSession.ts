import { compile } from '../pipeline/compile.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import { Executor } from '../engine/executor.ts';
import type { JobSnapshot } from '../engine/executor.ts';
import type { LoadOptions, LoadResult, LogLine, RunSnapshot, RunStatus } from './protocol.ts';
import { SinkSampler } from './sinkSampler.ts';
import { describeError, recordText } from './describe.ts';

const SNAPSHOT_MS = 50; // 20 Hz at most
const SLICE_MS = 30; // work per turn of the event loop, so control messages get through

/** One loaded job in the worker: paces the executor, samples results, takes in-memory checkpoints. */
export class EngineSession {
  private plan: JobPlan | null = null;
  private executor: Executor | null = null;
  private sampler = new SinkSampler([], {});
  private status: RunStatus = 'idle';
  private speed: number | null = null;
  private checkpointMs: number | null = null;
  private checkpoint: { id: number; snap: JobSnapshot } | null = null;
  private checkpointCount = 0;
  private lastCheckpointAt = 0;
  private records = 0;
  private rateWindow: { at: number; records: number }[] = [];
  private budget = 0;
  private lastTurn = 0;
  private log: LogLine[] = [];
  private seq = 0;
  private deadCursor = 0;
  private error: RunSnapshot['error'] = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPost = -Infinity;
  private listener: ((s: RunSnapshot) => void) | null = null;

  onSnapshot(l: (s: RunSnapshot) => void): void {
    this.listener = l;
  }

  load(doc: PipelineDocument, opts: LoadOptions): LoadResult {
    this.halt();
    this.speed = opts.speed;
    this.checkpointMs = opts.checkpointIntervalMs;
    const { plan, problems } = compile(doc);
    if (!plan) return { ok: false, problems, message: `the pipeline has ${problems.length} problem(s); see Problems` };
    this.plan = plan;
    const sinks = plan.nodes.filter((n) => n.isSink);
    const types = Object.fromEntries(sinks.map((n) => [n.id, n.inputs.in?.fields ?? null]));
    this.sampler = new SinkSampler(sinks.map((n) => n.id), types);
    this.records = 0;
    this.rateWindow = [];
    this.checkpoint = null;
    this.checkpointCount = 0;
    this.deadCursor = 0;
    this.error = null;
    this.log = [];
    try {
      this.executor = this.newExecutor(plan);
    } catch (e) {
      const err = describeError(e, plan);
      this.status = 'failed';
      this.error = err;
      this.addLog('error', `could not start: ${err.message}`, err.node);
      this.post(true);
      return { ok: false, problems: [], message: err.message };
    }
    this.status = 'ready';
    this.addLog('info', `job loaded: ${plan.nodes.length} operators, ${plan.edges.length} edges`);
    this.post(true);
    return { ok: true, sinks: sinks.map((n) => n.id) };
  }

  private newExecutor(plan: JobPlan): Executor {
    const ex = new Executor(plan, { batchSize: 1, keepChangelog: false, onSinkOutput: (id, els) => this.sampler.onOutput(id, els) });
    ex.onTrace((e) => {
      if (e.type === 'source') this.records += e.records + e.deadLetters;
    });
    return ex;
  }

  run(): void {
    if (!this.executor || this.status === 'finished' || this.status === 'failed') return;
    this.status = 'running';
    this.lastTurn = performance.now();
    this.lastCheckpointAt = this.lastTurn;
    this.budget = 0;
    this.schedule(0);
    this.post(true);
  }

  pause(): void {
    if (this.status !== 'running') return;
    this.halt();
    this.status = 'paused';
    this.post(true);
  }

  /** Reads exactly one source record and lets everything it causes settle. */
  step(): void {
    const ex = this.executor;
    if (!ex || this.status === 'finished' || this.status === 'failed') return;
    this.halt();
    this.status = 'paused';
    const before = this.records;
    this.guard(() => {
      for (let i = 0; i < 100_000 && this.records === before; i++) if (ex.run(1) === 0) break;
      ex.drainInFlight();
    });
    if (this.records > before) this.addLog('info', `step: read record ${this.records}`);
    this.afterWork();
    this.post(true);
  }

  stop(): void {
    if (!this.executor) return;
    this.halt();
    this.post(true);
    this.executor = null;
    this.status = 'idle';
    this.addLog('info', 'job stopped');
    this.post(true);
  }

  setSpeed(speed: number | null): void {
    this.speed = speed;
    this.budget = 0;
  }

  setCheckpointInterval(ms: number | null): void {
    this.checkpointMs = ms;
  }

  setSinkWindow(id: string, offset: number, limit: number): void {
    this.sampler.setWindow(id, offset, limit);
    this.post(true);
  }

  killSubtask(nodeId: string): void {
    const ex = this.executor;
    if (!ex || !this.plan) return;
    const cp = this.checkpoint;
    this.addLog('warn', `subtask 0 of "${nodeId}" killed (fault injection); the job restarts ${cp ? `from checkpoint ${cp.id}` : 'from the beginning (no checkpoint yet)'}`, nodeId);
    this.guard(() => {
      if (cp) ex.restore(cp.snap);
      else this.executor = this.newExecutor(this.plan!);
    });
    this.records = this.sourceOffsets();
    this.sampler.markAllDirty();
    if (this.status === 'finished') this.status = 'paused';
    this.post(true);
  }

  /** Records the sources have read, from their offsets: right again after a restore. */
  private sourceOffsets(): number {
    const ex = this.executor;
    if (!ex || !this.plan) return 0;
    const m = ex.metrics();
    return this.plan.nodes.filter((n) => n.isSource).reduce((sum, n) => sum + (m[n.id]?.recordsOut ?? 0) + (m[n.id]?.deadLetters ?? 0), 0);
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => this.turn(), delay);
  }

  private halt(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private turn(): void {
    this.timer = null;
    const ex = this.executor;
    if (!ex || this.status !== 'running') return;
    const start = performance.now();
    if (this.speed === null) {
      this.guard(() => {
        while (performance.now() - start < SLICE_MS) if (ex.run(2000) === 0) break;
      });
    } else {
      this.budget = Math.min(this.budget + (this.speed * (start - this.lastTurn)) / 1000, this.speed);
      const target = this.records + Math.floor(this.budget);
      this.guard(() => {
        while (this.records < target && performance.now() - start < SLICE_MS) if (ex.run(1) === 0) break;
      });
      this.budget -= Math.floor(this.budget);
    }
    this.lastTurn = start;
    this.afterWork();
    if (this.status === 'running') {
      this.maybeCheckpoint(start);
      this.schedule(this.speed === null ? 0 : 20);
    }
    // The last snapshot of a run (finished, failed) must always go out.
    this.post(this.status !== 'running');
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (e) {
      this.halt();
      const err = describeError(e, this.plan);
      this.error = err;
      this.status = 'failed';
      this.addLog('error', `job failed: ${err.message}`, err.node);
    }
  }

  private afterWork(): void {
    const ex = this.executor;
    if (!ex) return;
    const dead = ex.deadLetters();
    const fresh = dead.slice(this.deadCursor, this.deadCursor + 20);
    for (const d of fresh) this.addLog('warn', `dead letter: ${d.reason}`, d.nodeId, recordText(d.row ?? d.raw));
    if (dead.length - this.deadCursor > fresh.length) this.addLog('warn', `… and ${dead.length - this.deadCursor - fresh.length} more dead letters`);
    this.deadCursor = dead.length;
    if (this.status !== 'failed' && ex.isFinished()) {
      this.halt();
      if (this.status !== 'finished') this.addLog('info', `job finished: ${this.records} records read`);
      this.status = 'finished';
    }
  }

  private maybeCheckpoint(now: number): void {
    if (!this.checkpointMs || !this.executor || now - this.lastCheckpointAt < this.checkpointMs) return;
    this.lastCheckpointAt = now;
    this.guard(() => {
      this.executor!.drainInFlight();
      this.checkpoint = { id: ++this.checkpointCount, snap: this.executor!.snapshot() };
    });
    this.addLog('info', `checkpoint ${this.checkpointCount} completed after ${this.records} records (in memory)`);
  }

  private addLog(level: LogLine['level'], message: string, node?: string, record?: string): void {
    this.log.push({ seq: ++this.seq, level, at: this.executor?.clock.now() ?? 0, node, message, record });
  }

  private post(force: boolean): void {
    const now = performance.now();
    if (!this.listener || (!force && now - this.lastPost < SNAPSHOT_MS)) return;
    this.lastPost = now;
    const ex = this.executor;
    const metrics = ex ? ex.metrics() : {};
    this.rateWindow.push({ at: now, records: this.records });
    while (this.rateWindow.length > 2 && now - this.rateWindow[0].at > 1000) this.rateWindow.shift();
    const first = this.rateWindow[0];
    const rate = now > first.at ? ((this.records - first.records) * 1000) / (now - first.at) : 0;
    const snap: RunSnapshot = {
      status: this.status,
      records: this.records,
      rate: this.status === 'running' ? rate : 0,
      clockMs: ex?.clock.now() ?? 0,
      metrics,
      deadLetters: Object.fromEntries(Object.entries(metrics).map(([k, m]) => [k, m.deadLetters])),
      sinks: this.sampler.sample(ex, now, force || this.status !== 'running'),
      log: this.log,
      checkpoints: this.checkpointCount,
      error: this.error,
    };
    this.log = [];
    this.listener(snap);
  }
}
