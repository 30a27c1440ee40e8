import { planOrThrow } from '../../src/testing/runPipeline.ts';
import type { JobPlan } from '../../src/pipeline/plan.ts';

const node = (id: string, kind: string, params: Record<string, unknown>) => ({ id, kind, params });
const edge = (from: string, to: string) => ({ id: `${from}-${to}`, from: { node: from, port: 'out' }, to: { node: to, port: 'in' } });

/** The reference keyed count + sum: source → keyBy → GROUP BY → view, memory state. */
export function keyedCountDoc(opts: { sink?: boolean } = {}): Record<string, unknown> {
  const sink = opts.sink ?? true;
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'bench_keyed_count',
    settings: { stateBackend: 'memory', parallelism: 1, seed: 1 },
    nodes: [
      node('events', 'fileSource', { schema: { key: 'integer', amount: 'number' } }),
      node('by_key', 'keyBy', { key: ['key'] }),
      node('totals', 'aggregate', {
        groupBy: ['key'],
        aggregates: [
          { fn: 'count', as: 'cnt' },
          { fn: 'sum', field: 'amount', as: 'total' },
        ],
      }),
      ...(sink ? [node('view', 'viewSink', { primaryKey: ['key'] })] : []),
    ],
    edges: [edge('events', 'by_key'), edge('by_key', 'totals'), ...(sink ? [edge('totals', 'view')] : [])],
  };
}

let cached: { sink: JobPlan; bare: JobPlan } | null = null;

export function keyedCountPlan(sink = true): JobPlan {
  cached ??= { sink: planOrThrow(keyedCountDoc()), bare: planOrThrow(keyedCountDoc({ sink: false })) };
  return sink ? cached.sink : cached.bare;
}
