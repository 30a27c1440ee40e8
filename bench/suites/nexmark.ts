import { runInProcess } from '../../src/runtime/runInProcess.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';
import { NEXMARK_QUERIES } from '../nexmark/index.ts';
import { interleave, now, type RunPlan } from '../lib/stats.ts';

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
}

/** One query, one worker (one core), source included, as Flink's figures include its datagen. */
export function runQuery(plan: JobPlan, events: number): QueryRun {
  const t0 = now();
  const { cluster, result } = runInProcess(plan, { keepChangelog: false });
  const ms = now() - t0;
  const last = plan.nodes[plan.nodes.length - 1].id;
  const results = cluster.metrics()[last]?.recordsOut ?? 0;
  return { eps: events / (ms / 1000), results, deadLetters: result.deadLetters.length };
}

/** nexmark.qN.eventsPerSecPerCore for each query; each query measured on its own (no pairing needed). */
export async function nexmarkSuite(events: number, plan: RunPlan, queries = Object.keys(NEXMARK_QUERIES)): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // Generator, filter and projection code is shared by every query: warm it once so that the first query is not penalised.
  runQuery(nexmarkPlan('q1', events), events);
  for (const q of queries) {
    const p = nexmarkPlan(q, events);
    let last: QueryRun | null = null;
    const r = await interleave({ [q]: () => (last = runQuery(p, events)).eps }, plan);
    out[`nexmark.${q}.eventsPerSecPerCore`] = r.median[q];
    out[`nexmark.${q}.results`] = last!.results;
    if (last!.deadLetters) out[`nexmark.${q}.deadLetters`] = last!.deadLetters;
  }
  return out;
}
