import { NodeTask } from '../../src/engine/nodeTask.ts';
import { operatorDefinition } from '../../src/engine/registry.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { seededRng } from '../../src/core/rng.ts';
import { MemoryStateBackend } from '../../src/state/memory/memoryBackend.ts';
import type { StateTime } from '../../src/state/backend.ts';
import type { Element } from '../../src/core/types.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';

/** One operator of a plan as the runtime runs it: a NodeTask over a memory backend, opened. */
export function nodeTask(plan: JobPlan, id: string): NodeTask {
  const node = plan.nodes.find((n) => n.id === id);
  if (!node) throw new Error(`bench plan ${plan.doc.name} has no node ${id}`);
  let t: NodeTask | null = null;
  const time: StateTime = { processingTime: () => 0, eventTime: () => t!.currentEventTime() };
  t = new NodeTask(node, operatorDefinition(node.kind), new MemoryStateBackend(time, plan.maxParallelism), new ManualClock(0), seededRng(1), () => {});
  t.open();
  return t;
}

/** Runs a batch through a chain of tasks (each one's `out` into the next's `in`); returns the last one's output. */
export function throughChain(chain: readonly NodeTask[], els: readonly Element[]): Element[] {
  let batch: readonly Element[] = els;
  for (const task of chain) {
    task.processBatch('in', batch);
    batch = task.drain()?.get('out') ?? [];
  }
  return batch as Element[];
}

/** The blackhole: reads every field of every record, so that the engine side touches what the raw side touches. */
export function touch(els: readonly Element[]): number {
  let s = 0;
  for (const el of els) s += (el.row.key as number) + (el.row.amount as number);
  return s;
}
