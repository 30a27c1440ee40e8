import { compile } from '../pipeline/compile.ts';
import { Executor } from '../engine/executor.ts';
import type { ExecutorOptions } from '../engine/executor.ts';
import type { DeadLetter, Element, Row } from '../engine/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';

export interface PipelineRun {
  plan: JobPlan;
  executor: Executor;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  deadLetters: readonly DeadLetter[];
}

export function planOrThrow(doc: unknown): JobPlan {
  const { plan, problems } = compile(doc);
  if (!plan) throw new Error(`invalid pipeline:\n${problems.map((p) => `  ${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('\n')}`);
  return plan;
}

/** Compiles and runs a pipeline to the end of its input; for tests and the oracle. */
export function runPipeline(doc: unknown, opts: ExecutorOptions = {}): PipelineRun {
  const plan = planOrThrow(doc);
  const executor = new Executor(plan, opts);
  executor.run();
  const views: Record<string, Row[]> = {};
  const changelogs: Record<string, Element[]> = {};
  for (const n of plan.nodes) {
    if (!n.isSink) continue;
    views[n.id] = executor.view(n.id);
    changelogs[n.id] = executor.changelog(n.id);
  }
  return { plan, executor, views, changelogs, deadLetters: executor.deadLetters() };
}
