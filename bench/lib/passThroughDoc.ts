import { planOrThrow } from '../../src/testing/runPipeline.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';

/**
 * The pass-through pipeline of crossWorker.passThrough*: source → map → sink. The map rewrites
 * `amount` to itself (a SQL expression, run in the operator's realm); the sink is a blackhole
 * that touches every field of every record, as the raw side does.
 */
export function passThroughDoc(): Record<string, unknown> {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'bench_pass_through',
    settings: { stateBackend: 'memory', parallelism: 1, seed: 1 },
    nodes: [
      { id: 'events', kind: 'fileSource', params: { schema: { key: 'integer', amount: 'number' } } },
      { id: 'pass', kind: 'map', params: { set: [{ name: 'amount', expr: 'amount' }] } },
    ],
    edges: [{ id: 'events-pass', from: { node: 'events', port: 'out' }, to: { node: 'pass', port: 'in' } }],
  };
}

let cached: JobPlan | null = null;
export const passThroughPlan = (): JobPlan => (cached ??= planOrThrow(passThroughDoc()));
