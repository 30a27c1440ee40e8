import { describe, expect, it } from 'vitest';
import { runPipeline, planOrThrow } from '../../testing/runPipeline.ts';
import type { Element } from '../../core/types.ts';
import { compile } from '../../pipeline/compile.ts';

const doc = (params: Record<string, unknown>, seed = 42) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'gen',
  settings: { seed },
  nodes: [
    { id: 'gen', kind: 'generatorSource', params },
    { id: 'out', kind: 'collectSink', params: {} },
  ],
  edges: [{ from: { node: 'gen', port: 'out' }, to: { node: 'out', port: 'in' } }],
});

const rows = (els: readonly Element[]) => els.map((e) => e.row);

describe('generatorSource', () => {
  it('infers the scenario schema and ts as event time', () => {
    const { plan, problems } = compile(doc({ scenario: 'orders', count: 5 }));
    expect(problems).toEqual([]);
    expect(plan!.nodes[0].outputs.out).toMatchObject({ eventTime: 'ts', fields: { order_id: 'string', amount: 'number', ts: 'timestamp' } });
  });

  it('reports an unknown scenario and a missing event-time field', () => {
    const { problems } = compile(doc({ scenario: 'nope', count: 5 }));
    expect(problems.map((p) => p.field)).toContain('params.scenario');
    const bad = compile(doc({ scenario: 'orders', count: 5, eventTime: { field: 'when' } }));
    expect(bad.problems.map((p) => [p.target, p.field])).toEqual([['gen', 'params.eventTime.field']]);
  });

  it('stamps event time from ts by default and ends with the final watermark', () => {
    const run = runPipeline(doc({ scenario: 'sequence', count: 50, disorderMs: 300, ratePerSec: 20 }));
    const out = run.changelogs.out;
    expect(out).toHaveLength(50);
    for (const e of out) expect(e.ts).toBe(e.row.ts);
    expect(run.job.metrics().gen.watermark).toBe(Infinity);
    expect(run.deadLetters).toEqual([]);
  });

  it('derives its seed from the job seed unless params.seed is given', () => {
    const p = { scenario: 'orders', count: 20 };
    const a = rows(runPipeline(doc(p, 1)).changelogs.out);
    expect(rows(runPipeline(doc(p, 1)).changelogs.out)).toEqual(a);
    expect(rows(runPipeline(doc(p, 2)).changelogs.out)).not.toEqual(a);
    const fixed = { ...p, seed: 9 };
    expect(rows(runPipeline(doc(fixed, 1)).changelogs.out)).toEqual(rows(runPipeline(doc(fixed, 2)).changelogs.out));
  });
});
