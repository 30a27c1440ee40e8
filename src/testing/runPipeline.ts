import { compile } from '../pipeline/compile.ts';
import type { DeadLetter, Element, Row } from '../engine/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { LocalCluster, singleSubtaskPlan } from '../runtime/localCluster.ts';
import type { ClusterOptions } from '../runtime/localCluster.ts';

export interface PipelineRun {
  plan: JobPlan;
  /** The finished job: its subtasks' state, operators and metrics stay readable. */
  job: LocalCluster;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  deadLetters: readonly DeadLetter[];
}

export type RunPipelineOptions = Pick<ClusterOptions, 'batchSize' | 'inputs' | 'readers' | 'keepChangelog' | 'onPublish'>;

export function planOrThrow(doc: unknown): JobPlan {
  const { plan, problems } = compile(doc);
  if (!plan) throw new Error(`invalid pipeline:\n${problems.map((p) => `  ${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('\n')}`);
  return plan;
}

/**
 * Compiles and runs a pipeline to the end of its input, synchronously, for tests and the
 * oracle: the one runtime in process, one subtask per node, processing time simulated from the
 * sources' rates, so the same document always gives the same changelogs.
 */
export function runPipeline(doc: unknown, opts: RunPipelineOptions = {}): PipelineRun {
  const plan = planOrThrow(doc);
  const job = new LocalCluster(singleSubtaskPlan(plan), { schedule: 'simulated', checkpointIntervalMs: null, ...opts });
  const res = job.runSync();
  return { plan, job, views: res.views, changelogs: res.changelogs, deadLetters: res.deadLetters };
}
