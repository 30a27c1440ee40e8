// latency.*: event-to-view latency of a checkpointed job on Web Workers (BrowserJob), fed at a
// fixed rate. A pacing map holds each record until its scheduled wall time and stamps that time
// into the record (stamping the schedule, not the moment it got out, keeps a lagging pipeline from
// hiding its backlog: no coordinated omission), and the moment it actually let it go. The pacer
// runs on a worker of its own (JobOptions.ownWorker), so its sleeping never stalls the job it
// measures; the source that feeds it shares that worker (both are the load generator). A keyed
// aggregate on the other workers carries both stamps (max per key is the record just counted), and
// a row's latency is taken on the main thread when the sink's epoch is published, i.e. when it
// becomes visible.
import { BrowserJob } from '../../src/runtime/browser/browserJob.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import { median, percentile, type RunPlan } from '../lib/stats.ts';
import { highestSustained, sustained } from '../lib/rateSearch.ts';
import { NO_PREVIEW, notSustained } from '../lib/latencyText.ts';

export interface LatencySize {
  /** The offered rate. */
  ratePerSec: number;
  seconds: number;
  keys: number;
  /** Parallelism of the aggregate and the sink: their subtasks spread over this many workers. */
  parallelism: number;
  checkpointIntervalMs: number;
  /** Credit per channel in messages (JobOptions.channelCapacity); default: the runtime's. */
  channelCapacity?: number;
  /** Records per source read; default 256, the runtime's own default (2.56 ms of schedule at 100k/s). */
  batchSize?: number;
  /** Records scheduled in the first this-many ms of a run are warm-up (JIT, first checkpoint). */
  warmupMs: number;
  /** Single runs spent looking for the highest sustained rate when the offered one is not. */
  searchSteps: number;
  /**
   * 1 (default): the source that feeds the pacer shares the pacer's worker, outside the measured job;
   * 0: it stays in slot sharing with the aggregate (for A/B of that placement).
   */
  sourceWithPacer?: number;
}


const wallNow = () => performance.timeOrigin + performance.now();

export function latencyDoc(s: LatencySize, rate: number, run: number) {
  const n = Math.round(rate * s.seconds);
  const rows = Array.from({ length: n }, (_, i) => ({ i, key: i % s.keys, amount: i % 100 }));
  const step = 1000 / rate;
  // The schedule starts with the first record the pacing map sees, so worker start-up is not counted.
  // A record more than 1 ms ahead of its schedule puts the pacer's thread to sleep (Atomics.wait, the
  // page is cross-origin isolated) instead of spinning. Records leave at most 1 ms early; stamps stay
  // the schedule, so that can only understate latency by under 1 ms. One clock reading per record
  // where none sleeps (the moment it let the record go is then the moment it read the clock,
  // microseconds earlier), and the pacer's state is made once: the pacer's thread also runs the
  // source, so its per-record cost is taken from the load it generates.
  const pace = `(row) => {
    let p = globalThis.__weirPace${run};
    if (p === undefined) {
      p = globalThis.__weirPace${run} = { start: performance.now(), origin: performance.timeOrigin, sleep: typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null };
    }
    const due = p.start + row.i * ${step};
    let at = performance.now();
    if (p.sleep) {
      if (due - at > 1) {
        Atomics.wait(p.sleep, 0, 0, due - at);
        at = performance.now();
      }
    } else while (at < due) at = performance.now();
    return { key: row.key, amount: row.amount, t0: p.origin + due, sent: p.origin + at };
  }`;
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `bench_latency_${run}`,
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows } },
      { id: 'pace', kind: 'map', params: { code: pace } },
      {
        id: 'agg',
        kind: 'aggregate',
        params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }, { fn: 'max', field: 't0', as: 't0' }, { fn: 'max', field: 'sent', as: 'sent' }] },
        parallelism: s.parallelism,
      },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: s.parallelism },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'pace', port: 'in' } },
      { from: { node: 'pace', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

export interface OneRun {
  rate: number;
  /** Committed latency (offered schedule → published), after warm-up. */
  p50: number;
  p99: number;
  /**
   * Records after warm-up ÷ the time the pacer took to let them go. The pacer is held back by
   * credit when the job downstream cannot keep up, so below the offered rate the job did not sustain it.
   */
  achieved: number;
  checkpoints: number;
  /** Completed checkpoints, trigger → complete, 99th percentile. */
  checkpointP99: number;
  /** Preview latency (schedule → the sink's change seen before it commits), 99th percentile; null when the runtime offers no preview. */
  previewP99: number | null;
}

let runs = 0;

async function oneRun(s: LatencySize, rate: number): Promise<OneRun> {
  const run = runs++;
  const lat: number[] = [];
  const stamps: number[] = [];
  let first = Infinity;
  let lastSent = -Infinity;
  const preview: { at: number; t0: number }[] = [];
  // The runtime's preview stream, where it has one (`onPreview`): the same rows, seen as the sink receives them.
  const previewHook: Record<string, unknown> = {
    onPreview: (_sink: string, change: { els: readonly { kind: string; row: Record<string, unknown> }[] }) => {
      const at = wallNow();
      for (const el of change.els) if (el.kind === '+I' || el.kind === '+U') preview.push({ at, t0: el.row.t0 as number });
    },
  };
  const job = new BrowserJob(latencyDoc(s, rate, run), {
    ...previewHook,
    jobId: `bench-latency-${run}`,
    store: new MemoryCheckpointStore({ ownership: 'handover' }),
    checkpointIntervalMs: s.checkpointIntervalMs,
    batchSize: s.batchSize ?? 256,
    ...(s.channelCapacity ? { channelCapacity: s.channelCapacity } : {}),
    keepChangelog: false,
    standby: false,
    // The source and the pacer are the load generator: on a worker of their own, records cross no thread
    // between them, and the source's reads and batch encoding do not take CPU from the aggregate it feeds.
    ownWorker: (s.sourceWithPacer ?? 1) ? [['src', 'pace']] : ['pace'],
    onPublish: (_sink, commit) => {
      const at = wallNow();
      for (const el of commit.els) {
        if (el.kind !== '+I' && el.kind !== '+U') continue;
        const t0 = el.row.t0 as number;
        first = Math.min(first, t0);
        lastSent = Math.max(lastSent, el.row.sent as number);
        lat.push(at - t0);
        stamps.push(t0);
      }
    },
  });
  try {
    const res = await job.run();
    if (res.status !== 'finished') throw new Error(`latency run ${run}: the job ${res.status}: ${res.reason}`);
    const expected = Math.round(rate * s.seconds);
    if (lat.length !== expected) throw new Error(`latency run ${run}: the view published ${lat.length} changes for ${expected} records`);
    // Warm-up records are known only now that the schedule's start (the first stamp) is.
    const from = first + s.warmupMs;
    const measured = lat.filter((_, i) => stamps[i] >= from).sort((a, b) => a - b);
    const done = res.checkpoints.filter((c) => c.status === 'completed' && c.completedAt !== null);
    const cpMs = done.map((c) => c.completedAt! - c.triggeredAt).sort((a, b) => a - b);
    return {
      rate,
      p50: percentile(measured, 50),
      p99: percentile(measured, 99),
      achieved: measured.length / (Math.max(1, lastSent - from) / 1000),
      checkpoints: done.length,
      checkpointP99: percentile(cpMs, 99),
      previewP99: preview.length ? percentile(preview.filter((p) => p.t0 >= from).map((p) => p.at - p.t0).sort((a, b) => a - b), 99) : null,
    };
  } finally {
    await job.dispose();
  }
}

function figures(prefix: string, runs: OneRun[], intervalMs: number): Record<string, number> {
  const p99 = median(runs.map((g) => g.p99));
  const previews = runs.map((g) => g.previewP99).filter((p): p is number => p !== null);
  return {
    ...(previews.length && prefix !== 'latency' ? { [`${prefix}.previewP99Ms`]: median(previews) } : {}),
    [`${prefix}.committedP50Ms`]: median(runs.map((g) => g.p50)),
    [`${prefix}.committedP99Ms`]: p99,
    [`${prefix}.committedOverIntervalP99Ms`]: p99 - intervalMs,
    [`${prefix}.checkpointP99Ms`]: median(runs.map((g) => g.checkpointP99)),
    [`${prefix}.checkpointsPerRun`]: median(runs.map((g) => g.checkpoints)),
  };
}

/**
 * Medians over runs (after warm-up runs) at the offered rate. The latency figures count only when
 * that rate was sustained; otherwise they read "not sustained" with the highest rate that was
 * (searched in `searchSteps` single runs), and the same figures at that rate are under `latency.atSustained.*`.
 */
export async function latencySuite(s: LatencySize, plan: RunPlan): Promise<Record<string, number | string>> {
  const got: OneRun[] = [];
  for (let r = 0; r < plan.warmups + plan.runs; r++) {
    const one = await oneRun(s, s.ratePerSec);
    if (r >= plan.warmups) got.push(one);
  }
  const achieved = median(got.map((g) => g.achieved));
  const out: Record<string, number | string> = {
    'latency.offeredEventsPerSec': s.ratePerSec,
    'latency.achievedEventsPerSec': achieved,
    'latency.checkpointIntervalMs': s.checkpointIntervalMs,
    ...figures('latency', got, s.checkpointIntervalMs),
  };
  const previews = got.map((g) => g.previewP99).filter((p): p is number => p !== null);
  out['latency.previewP99Ms'] = previews.length ? median(previews) : NO_PREVIEW;
  if (sustained(s.ratePerSec, achieved)) {
    out['latency.sustainedEventsPerSec'] = s.ratePerSec;
    return out;
  }
  const best = await highestSustained(s.ratePerSec, achieved, s.searchSteps, async (rate) => {
    const one = await oneRun(s, rate);
    return { achieved: one.achieved, run: one };
  });
  const text = notSustained(s.ratePerSec, achieved, best?.rate ?? null, s.searchSteps);
  for (const k of ['latency.committedP50Ms', 'latency.committedP99Ms', 'latency.committedOverIntervalP99Ms']) out[k] = text;
  if (previews.length) out['latency.previewP99Ms'] = text;
  out['latency.sustainedEventsPerSec'] = best?.rate ?? 0;
  if (best) Object.assign(out, figures('latency.atSustained', [best.run], s.checkpointIntervalMs));
  return out;
}
