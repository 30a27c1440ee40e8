import { inProcessCluster } from '../../src/runtime/runInProcess.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';
import { NEXMARK_QUERIES } from '../nexmark/index.ts';
import { interleave, now, type RunPlan } from '../lib/stats.ts';
import { CheckpointPacing, runPaced } from '../../src/runtime/checkpointPacing.ts';

/** Flink's published Nexmark figures include periodic checkpoints; so do these. */
export const NEXMARK_CHECKPOINT_INTERVAL_MS = 1000;
/**
 * At least this much processing after each checkpoint settles. The in-process run snapshots and
 * copies its state on the thread that processes the records: without a pause, q5's and q7's
 * growing window state made every checkpoint outlast the interval, the next started at once,
 * and a 1M-event run crawled for hours.
 */
export const NEXMARK_CHECKPOINT_MIN_PAUSE_MS = NEXMARK_CHECKPOINT_INTERVAL_MS;

/** The query document with its generator set to `events` Nexmark events. */
export function nexmarkPlan(query: string, events: number): JobPlan {
  const doc = structuredClone(NEXMARK_QUERIES[query]) as { nodes: { id: string; params: Record<string, unknown> }[] };
  for (const n of doc.nodes) if (n.id === 'events') n.params.count = events;
  return planOrThrow(doc);
}

export interface QueryRun {
  eps: number;
  /** Rows the query's last node emitted (into the blackhole): a check that the query did its work. */
  results: number;
  deadLetters: number;
  /** Checkpoints taken during the run. */
  checkpoints: number;
}

/**
 * One query, one worker (one core), source included, as Flink's figures include its datagen, on
 * the one runtime in process, with a memory-state checkpoint through its coordinator every
 * `intervalMs` of wall time (one in flight at a time, `minPauseMs` of processing after each).
 */
export async function runQuery(plan: JobPlan, events: number, intervalMs = NEXMARK_CHECKPOINT_INTERVAL_MS, minPauseMs = Math.min(intervalMs, NEXMARK_CHECKPOINT_MIN_PAUSE_MS)): Promise<QueryRun> {
  const t0 = now();
  const cluster = inProcessCluster(plan, { keepChangelog: false });
  await cluster.start();
  const { checkpoints } = await runPaced(cluster, new CheckpointPacing(intervalMs, minPauseMs, t0), now);
  const ms = now() - t0;
  const last = plan.nodes[plan.nodes.length - 1].id;
  const result = cluster.result();
  const results = cluster.metrics()[last]?.recordsOut ?? 0;
  return { eps: events / (ms / 1000), results, deadLetters: result.deadLetters.length, checkpoints };
}

/** nexmark.qN.eventsPerSecPerCore for each query; each query measured on its own (no pairing needed). */
export async function nexmarkSuite(events: number, plan: RunPlan, queries = Object.keys(NEXMARK_QUERIES), intervalMs = NEXMARK_CHECKPOINT_INTERVAL_MS): Promise<Record<string, number>> {
  const out: Record<string, number> = { 'nexmark.checkpointIntervalMs': intervalMs, 'nexmark.checkpointMinPauseMs': Math.min(intervalMs, NEXMARK_CHECKPOINT_MIN_PAUSE_MS) };
  // Generator, filter and projection code is shared by every query: warm it once so that the first query is not penalised.
  await runQuery(nexmarkPlan('q1', events), events, intervalMs);
  for (const q of queries) {
    const p = nexmarkPlan(q, events);
    let last: QueryRun | null = null;
    const r = await interleave({ [q]: async () => (last = await runQuery(p, events, intervalMs)).eps }, plan);
    out[`nexmark.${q}.eventsPerSecPerCore`] = r.median[q];
    out[`nexmark.${q}.results`] = last!.results;
    out[`nexmark.${q}.checkpointsPerRun`] = last!.checkpoints;
    if (last!.deadLetters) out[`nexmark.${q}.deadLetters`] = last!.deadLetters;
  }
  return out;
}
