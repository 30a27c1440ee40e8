import { describe, expect, it } from 'vitest';
import { exportFlinkSql } from './index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';

/** A visit yields an enter, a leave and (mostly) an order: 400 visits are not 3 × 400 nor 2.85 × 400 records. */
const visits = (seed?: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'visits',
  settings: seed === undefined ? {} : { seed },
  nodes: [
    { id: 'visits', kind: 'generatorSource', params: { scenario: 'coffeeVisits', count: 400 } },
    { id: 'out', kind: 'logSink', params: {} },
  ],
  edges: [{ from: { node: 'visits', port: 'out' }, to: { node: 'out', port: 'in' } }],
});

describe('datagen export of a generator', () => {
  it('says as many rows as the run emits, for the job seed the run uses', () => {
    for (const seed of [undefined, 7]) {
      const doc = visits(seed);
      const emitted = runPipeline(doc).changelogs.out.length;
      const rows = Number(/'number-of-rows' = '(\d+)'/.exec(exportFlinkSql(doc).sql)?.[1]);
      expect(rows).toBe(emitted);
    }
  });
});
