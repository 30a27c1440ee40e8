import { compile } from '../pipeline/compile.ts';
import type { DeadLetter, Element, Row } from '../core/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { LocalCluster } from '../runtime/localCluster.ts';
import { runInProcess } from '../runtime/runInProcess.ts';
import type { InProcessOptions } from '../runtime/runInProcess.ts';

export interface PipelineRun {
  plan: JobPlan;
  /** The finished job: its subtasks' state, operators and metrics stay readable. */
  job: LocalCluster;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  deadLetters: readonly DeadLetter[];
}


export function planOrThrow(doc: unknown): JobPlan {
  const { plan, problems } = compile(doc);
  if (!plan) throw new Error(`invalid pipeline:\n${problems.map((p) => `  ${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('\n')}`);
  return plan;
}

/** Compiles and runs a pipeline to the end of its input, synchronously (see runInProcess); for tests. */
export function runPipeline(doc: unknown, opts: InProcessOptions = {}): PipelineRun {
  const plan = planOrThrow(doc);
  const { cluster, result } = runInProcess(plan, opts);
  return { plan, job: cluster, views: result.views, changelogs: result.changelogs, deadLetters: result.deadLetters };
}
