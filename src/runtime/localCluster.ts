import type { DeadLetter, Element, Row } from '../engine/types.ts';
import { ManualClock } from '../engine/time/clock.ts';
import { seededRng } from '../engine/rng.ts';
import type { Rng } from '../engine/rng.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import type { CheckpointRecord, CheckpointStore, PendingCommit, SubtaskSnapshot } from '../checkpoint/types.ts';
import { compareRows } from '../engine/operators/changelogTable.ts';
import { SubtaskRunner } from './subtaskRunner.ts';
import type { RunnerHost } from './subtaskRunner.ts';
import type { ChannelMessage } from './messages.ts';
import { DEFAULT_RESTART, restartDelay } from './restartStrategy.ts';
import type { RestartStrategy } from './restartStrategy.ts';
import type { SourceEnv } from '../engine/source.ts';

/** When and how to fail a subtask on purpose. */
export interface Kill {
  atStep: number;
  /** Wait until this also holds: some subtask is aligning barriers, or a snapshot write is in flight. */
  when?: 'any' | 'aligning' | 'writing';
  /** Subtask id to kill; a seeded random live one when absent. */
  subtask?: string;
}

export interface ClusterOptions {
  jobId?: string;
  /** Seeds the scheduler's interleaving; the job's own seed stays in the plan. */
  scheduleSeed?: number;
  checkpointIntervalMs?: number | null;
  store?: CheckpointStore;
  retain?: number;
  restart?: RestartStrategy;
  channelCapacity?: number;
  inputs?: Record<string, SourceEnv['input']>;
  kills?: Kill[];
  onPublish?: (sinkId: string, els: readonly Element[]) => void;
  maxSteps?: number;
  /** Records per source read (smaller batches interleave more finely). */
  batchSize?: number;
}

export interface ClusterResult {
  status: 'finished' | 'failed';
  reason?: string;
  restarts: number;
  steps: number;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  checkpoints: CheckpointRecord[];
  deadLetters: DeadLetter[];
}

class Killed extends Error {}

/**
 * The parallel runtime in one process: every subtask of the plan, bounded channels with
 * credit, aligned-barrier checkpoints, failures and restarts, all under a seeded scheduler.
 * The same SubtaskRunner runs inside real workers; this host makes chaos tests replayable.
 */
export class LocalCluster {
  readonly clock = new ManualClock(0);
  private runners: SubtaskRunner[] = [];
  private readonly byNode = new Map<string, SubtaskRunner[]>();
  private coordinator!: CheckpointCoordinator;
  private readonly store: CheckpointStore;
  private readonly rng: Rng;
  private readonly jobId: string;
  private attempt = 0;
  private writes: { attempt: number; id: number; snap: SubtaskSnapshot; timing: { alignMs: number; syncMs: number; buffered: number } }[] = [];
  private readonly published = new Set<string>();
  private readonly changelogs = new Map<string, Element[]>();
  private readonly dead: DeadLetter[] = [];
  private readonly kills: Kill[];
  private nextCheckpointAt: number;
  private steps = 0;
  private restarts = 0;
  private history: CheckpointRecord[] = [];

  constructor(
    readonly plan: JobPlan,
    private readonly opts: ClusterOptions = {},
  ) {
    this.store = opts.store ?? new MemoryCheckpointStore();
    this.rng = seededRng(opts.scheduleSeed ?? 1);
    this.jobId = opts.jobId ?? plan.doc.name;
    this.kills = [...(opts.kills ?? [])].sort((a, b) => a.atStep - b.atStep);
    this.nextCheckpointAt = opts.checkpointIntervalMs ?? Infinity;
    for (const n of plan.nodes) if (n.isSink) this.changelogs.set(n.id, []);
  }

  private host(attempt: number): RunnerHost {
    const capacity = this.opts.channelCapacity ?? 8;
    return {
      clock: this.clock,
      hasCredit: (edge, from, to) => {
        const r = this.target(edge, to);
        return r.queued(r.channelIndex(edge, from)) < capacity;
      },
      send: (edge, from, to, msg: ChannelMessage) => {
        if (attempt !== this.attempt) return;
        const r = this.target(edge, to);
        r.enqueue(r.channelIndex(edge, from), msg);
      },
      snapshotTaken: (id, snap, timing) => {
        if (attempt === this.attempt) this.writes.push({ attempt, id, snap, timing });
      },
      declined: (id, subtask, reason) => {
        if (attempt === this.attempt) void this.coordinator.decline(id, subtask, reason);
      },
      publish: (sinkId, commits) => {
        if (attempt === this.attempt) this.publish(sinkId, commits);
      },
      deadLetter: (d) => {
        if (attempt === this.attempt) this.dead.push(d);
      },
    };
  }

  private target(edge: number, to: number): SubtaskRunner {
    return this.byNode.get(this.plan.edges[edge].to.node)![to];
  }

  private publish(sinkId: string, commits: PendingCommit[]): void {
    for (const c of commits) {
      const id = `${c.origin}@${c.epoch}`;
      if (this.published.has(id)) continue;
      this.published.add(id);
      const log = this.changelogs.get(sinkId)!;
      for (const e of c.els) log.push(e);
      this.opts.onPublish?.(sinkId, c.els);
    }
  }

  /** (Re)creates every subtask; with snapshots, restores them and re-publishes pre-committed sink output. */
  private async deploy(): Promise<void> {
    this.attempt++;
    this.writes = [];
    const host = this.host(this.attempt);
    this.runners = [];
    this.byNode.clear();
    for (const n of this.plan.nodes) {
      const list = Array.from({ length: n.parallelism }, (_, index) => new SubtaskRunner({ plan: this.plan, node: n, index, host, inputs: this.opts.inputs, batchSize: this.opts.batchSize }));
      this.byNode.set(n.id, list);
      this.runners.push(...list);
    }
    const latest = await this.store.latest(this.jobId);
    if (latest) {
      const snaps = new Map<string, SubtaskSnapshot[]>();
      for (const ref of Object.values(latest.subtasks)) {
        const s = await this.store.readSubtask(ref);
        const node = s.subtask.slice(0, s.subtask.lastIndexOf('#'));
        snaps.set(node, [...(snaps.get(node) ?? []), s]);
      }
      for (const r of this.runners) {
        const repub = r.restore(snaps.get(r.node.id) ?? []);
        if (repub.length) this.publish(r.node.id, repub);
      }
    }
    const retained = await this.store.list(this.jobId);
    this.coordinator = new CheckpointCoordinator(
      this.jobId,
      this.store,
      this.runners.map((r) => r.id),
      this.clock,
      { retain: this.opts.retain ?? 3, timeoutMs: 60_000, parallelism: Object.fromEntries(this.plan.nodes.map((n) => [n.id, n.parallelism])) },
      {
        trigger: (id) => this.runners.forEach((r) => r.triggered(id)),
        completed: (id) => this.runners.forEach((r) => r.checkpointCompleted(id)),
        aborted: () => undefined,
      },
      retained,
    );
  }

  /** Runs the job to its end, surviving failures as the restart strategy allows. */
  async run(): Promise<ClusterResult> {
    await this.deploy();
    const maxSteps = this.opts.maxSteps ?? 50_000_000;
    for (;;) {
      try {
        const done = await this.loop(maxSteps);
        if (done) break;
        return this.result('failed', `no progress after ${this.steps} steps`);
      } catch (e) {
        if (!(e instanceof Killed)) throw e;
        this.history.push(...this.coordinator.history());
        await this.coordinator.stop(`job failed: ${e.message}`);
        this.restarts++;
        const delay = restartDelay(this.opts.restart ?? DEFAULT_RESTART, this.restarts);
        if (delay === null) return this.result('failed', `restart attempts exhausted after: ${e.message}`);
        this.clock.advance(delay);
        await this.deploy();
      }
    }
    await this.finishCheckpoints();
    for (const r of this.runners) r.jobFinished();
    return this.result('finished');
  }

  private async loop(maxSteps: number): Promise<boolean> {
    while (this.steps < maxSteps) {
      this.steps++;
      this.clock.advance(1);
      this.maybeKill();
      if (this.clock.now() >= this.nextCheckpointAt) {
        this.nextCheckpointAt = this.clock.now() + (this.opts.checkpointIntervalMs ?? Infinity);
        this.coordinator.trigger();
      }
      // Snapshot writes complete after a seeded delay, so kills can land while they are in flight.
      if (this.writes.length && this.rng.next() < 0.3) await this.completeWrite(this.writes.shift()!);
      const ready = this.runners.filter((r) => r.runnable());
      if (ready.length === 0) {
        if (this.runners.every((r) => r.finished)) return true;
        if (this.writes.length) {
          await this.completeWrite(this.writes.shift()!);
          continue;
        }
        return false;
      }
      this.rng.pick(ready).runOne();
    }
    return false;
  }

  private maybeKill(): void {
    const k = this.kills[0];
    if (!k || this.steps < k.atStep) return;
    if (k.when === 'aligning' && !this.runners.some((r) => r.isAligning())) return;
    if (k.when === 'writing' && this.writes.length === 0) return;
    this.kills.shift();
    const live = this.runners.filter((r) => !r.finished);
    const victim = k.subtask ?? (live.length ? this.rng.pick(live).id : this.runners[0].id);
    throw new Killed(`subtask ${victim} was killed at step ${this.steps}${k.when && k.when !== 'any' ? ` (while ${k.when})` : ''}`);
  }

  private async completeWrite(w: (typeof this.writes)[number]): Promise<void> {
    if (w.attempt !== this.attempt) return;
    const t0 = this.clock.now();
    try {
      const { ref, bytes } = await this.store.writeSubtask(this.jobId, w.id, w.snap);
      if (w.attempt !== this.attempt) return;
      await this.coordinator.acknowledge(w.id, w.snap.subtask, ref, {
        subtask: w.snap.subtask,
        alignMs: w.timing.alignMs,
        syncMs: w.timing.syncMs,
        asyncMs: this.clock.now() - t0,
        stateBytes: bytes,
        writtenBytes: bytes,
        bufferedDuringAlignment: w.timing.buffered,
      });
    } catch (e) {
      await this.coordinator.decline(w.id, w.snap.subtask, `snapshot write failed: ${(e as Error).message}`);
    }
  }

  /** Lets in-flight snapshot writes finish so the history is complete. */
  private async finishCheckpoints(): Promise<void> {
    while (this.writes.length) await this.completeWrite(this.writes.shift()!);
    this.history.push(...this.coordinator.history());
  }

  private result(status: ClusterResult['status'], reason?: string): ClusterResult {
    const views: Record<string, Row[]> = {};
    for (const n of this.plan.nodes) {
      if (!n.isSink) continue;
      const rows = (this.byNode.get(n.id) ?? []).flatMap((r) => (r.task?.operator as unknown as { rows(): Row[] }).rows());
      const pk = (n.params.primaryKey as string[] | undefined) ?? n.inputs.in?.uniqueKey ?? null;
      views[n.id] = rows.sort((a, b) => compareRows(a, b, pk && pk.length ? pk : Object.keys(a)));
    }
    return { status, reason, restarts: this.restarts, steps: this.steps, views, changelogs: Object.fromEntries(this.changelogs), checkpoints: this.history, deadLetters: this.dead };
  }
}
