import { Executor } from '../../src/engine/executor.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';
import { NEXMARK_QUERIES } from '../nexmark/index.ts';
import { interleave, now, type RunPlan } from '../lib/stats.ts';
import { memoryCheckpoint } from '../lib/executorCheckpoint.ts';

/** Flink's published Nexmark figures include periodic checkpoints; so do these. */
export const NEXMARK_CHECKPOINT_INTERVAL_MS = 1000;

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
 * One query, one worker (one core), source included, as Flink's figures include its datagen, with a
 * memory-state checkpoint every `intervalMs` of wall time (the run stays synchronous: a memory
 * checkpoint completes in the thread that takes it).
 */
export function runQuery(plan: JobPlan, events: number, intervalMs = NEXMARK_CHECKPOINT_INTERVAL_MS): QueryRun {
  const t0 = now();
  const ex = new Executor(plan, { keepChangelog: false });
  let lastCheckpoint = t0;
  let checkpoints = 0;
  let retained: Promise<unknown> | null = null;
  while (!ex.isFinished()) {
    ex.run(256);
    if (now() - lastCheckpoint >= intervalMs) {
      retained = memoryCheckpoint(ex, plan.doc.name, ++checkpoints);
      lastCheckpoint = now();
    }
  }
  const ms = now() - t0;
  void retained;
  const last = plan.nodes[plan.nodes.length - 1].id;
  const results = ex.metrics()[last]?.recordsOut ?? 0;
  return { eps: events / (ms / 1000), results, deadLetters: ex.deadLetters().length, checkpoints };
}

/** nexmark.qN.eventsPerSecPerCore for each query; each query measured on its own (no pairing needed). */
export async function nexmarkSuite(events: number, plan: RunPlan, queries = Object.keys(NEXMARK_QUERIES), intervalMs = NEXMARK_CHECKPOINT_INTERVAL_MS): Promise<Record<string, number>> {
  const out: Record<string, number> = { 'nexmark.checkpointIntervalMs': intervalMs };
  // Generator, filter and projection code is shared by every query: warm it once so that the first query is not penalised.
  runQuery(nexmarkPlan('q1', events), events, intervalMs);
  for (const q of queries) {
    const p = nexmarkPlan(q, events);
    let last: QueryRun | null = null;
    const r = await interleave({ [q]: () => (last = runQuery(p, events, intervalMs)).eps }, plan);
    out[`nexmark.${q}.eventsPerSecPerCore`] = r.median[q];
    out[`nexmark.${q}.results`] = last!.results;
    out[`nexmark.${q}.checkpointsPerRun`] = last!.checkpoints;
    if (last!.deadLetters) out[`nexmark.${q}.deadLetters`] = last!.deadLetters;
  }
  return out;
}
