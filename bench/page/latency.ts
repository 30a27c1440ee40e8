// latency.*: event-to-view latency of a checkpointed job on Web Workers (BrowserJob), fed at a
// fixed rate. A pacing map chained to the source holds each record until its scheduled wall time
// and stamps that time into the record (stamping the schedule, not the moment it got out, keeps a
// lagging pipeline from hiding its backlog: no coordinated omission). A keyed aggregate on another
// worker carries the stamp (max t0 per key is the record just counted), and the latency of a row is
// taken on the main thread when the sink's epoch is published, i.e. when it becomes visible.
import { BrowserJob } from '../../src/runtime/browser/browserJob.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import { median, percentile, type RunPlan } from '../lib/stats.ts';

export interface LatencySize {
  ratePerSec: number;
  seconds: number;
  keys: number;
  /** Parallelism of the aggregate and the sink: their subtasks spread over this many workers. */
  parallelism: number;
  checkpointIntervalMs: number;
  /**
   * A second, shorter interval measured in the same rounds: exactly-once output is visible only
   * when its checkpoint completes, so the interval is the floor of the latency, and this shows
   * how far down the floor goes.
   */
  fastCheckpointIntervalMs: number;
  /** Records per source read; default 256, the runtime's own default (2.56 ms of schedule at 100k/s). */
  batchSize?: number;
  /** Records scheduled in the first this-many ms of a run are warm-up (JIT, first checkpoint). */
  warmupMs: number;
}

const wallNow = () => performance.timeOrigin + performance.now();

export function latencyDoc(s: LatencySize, run: number) {
  const n = Math.round(s.ratePerSec * s.seconds);
  const rows = Array.from({ length: n }, (_, i) => ({ i, key: i % s.keys, amount: i % 100 }));
  const step = 1000 / s.ratePerSec;
  // The schedule starts with the first record the pacing map sees, so worker start-up is not counted.
  // A record more than 1 ms ahead of its schedule puts the thread to sleep (Atomics.wait, the page
  // is cross-origin isolated) instead of spinning: a spinning pacer took a whole core of this
  // 2-core machine away from the job it measures. Records leave at most 1 ms early; stamps stay
  // the schedule, so that can only understate latency by under 1 ms.
  const pace = `(row) => {
    const g = globalThis, now = () => performance.timeOrigin + performance.now();
    if (g.__weirPace${run} === undefined) {
      g.__weirPace${run} = now();
      g.__weirSleep = typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;
    }
    const due = g.__weirPace${run} + row.i * ${step};
    if (g.__weirSleep) {
      const ahead = due - now();
      if (ahead > 1) Atomics.wait(g.__weirSleep, 0, 0, ahead);
    } else while (now() < due);
    return { key: row.key, amount: row.amount, t0: due };
  }`;
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `bench_latency_${run}`,
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows } },
      { id: 'pace', kind: 'map', params: { code: pace } },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }, { fn: 'max', field: 't0', as: 't0' }] }, parallelism: s.parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: s.parallelism },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'pace', port: 'in' } },
      { from: { node: 'pace', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

interface OneRun {
  p50: number;
  p99: number;
  /** Records ÷ (last publication − schedule start): below the rate, the job fell behind and latency grew with the run. */
  achieved: number;
  checkpoints: number;
}

async function oneRun(s: LatencySize, run: number): Promise<OneRun> {
  const lat: number[] = [];
  const stamps: number[] = [];
  let first = Infinity;
  let lastAt = -Infinity;
  const job = new BrowserJob(latencyDoc(s, run), {
    jobId: `bench-latency-${run}`,
    store: new MemoryCheckpointStore({ ownership: 'handover' }),
    checkpointIntervalMs: s.checkpointIntervalMs,
    batchSize: s.batchSize ?? 256,
    keepChangelog: false,
    standby: false,
    onPublish: (_sink, commit) => {
      const at = wallNow();
      lastAt = at;
      for (const el of commit.els) {
        if (el.kind !== '+I' && el.kind !== '+U') continue;
        const t0 = el.row.t0 as number;
        first = Math.min(first, t0);
        lat.push(at - t0);
        stamps.push(t0);
      }
    },
  });
  try {
    const res = await job.run();
    if (res.status !== 'finished') throw new Error(`latency run ${run}: the job ${res.status}: ${res.reason}`);
    // Warm-up records are known only now that the schedule's start (the first stamp) is.
    const measured = lat.filter((_, i) => stamps[i] >= first + s.warmupMs).sort((a, b) => a - b);
    const expected = Math.round(s.ratePerSec * s.seconds);
    if (lat.length !== expected) throw new Error(`latency run ${run}: the view published ${lat.length} changes for ${expected} records`);
    return {
      p50: percentile(measured, 50),
      p99: percentile(measured, 99),
      achieved: expected / ((lastAt - first) / 1000),
      checkpoints: res.checkpoints.filter((c) => c.status === 'completed').length,
    };
  } finally {
    await job.dispose();
  }
}

let runs = 0;

/** Median over runs (after warm-up runs) of each run's p50 and p99, for both intervals, alternating within each round. */
export async function latencySuite(s: LatencySize, plan: RunPlan): Promise<Record<string, number>> {
  const got: OneRun[] = [];
  const fast: OneRun[] = [];
  const fastSize = { ...s, checkpointIntervalMs: s.fastCheckpointIntervalMs };
  for (let r = 0; r < plan.warmups + plan.runs; r++) {
    const order = r % 2 ? [fastSize, s] : [s, fastSize];
    for (const size of order) {
      const one = await oneRun(size, runs++);
      if (r >= plan.warmups) (size === s ? got : fast).push(one);
    }
  }
  return {
    'latency.p50Ms': median(got.map((g) => g.p50)),
    'latency.p99Ms': median(got.map((g) => g.p99)),
    'latency.ratePerSec': s.ratePerSec,
    'latency.achievedEventsPerSec': median(got.map((g) => g.achieved)),
    'latency.checkpointIntervalMs': s.checkpointIntervalMs,
    'latency.checkpointsPerRun': median(got.map((g) => g.checkpoints)),
    'latency.fastCheckpoints.p50Ms': median(fast.map((g) => g.p50)),
    'latency.fastCheckpoints.p99Ms': median(fast.map((g) => g.p99)),
    'latency.fastCheckpoints.achievedEventsPerSec': median(fast.map((g) => g.achieved)),
    'latency.fastCheckpoints.checkpointIntervalMs': s.fastCheckpointIntervalMs,
  };
}
