import type { Scenario } from './scenario.ts';
import { disorder, slot } from './scenario.ts';

/**
 * Keys in round robin with a per-key sequence number that grows by exactly 1: a gap or a
 * repeat downstream proves a lost or duplicated record (Flink's SemanticsCheckMapper idea).
 */
export const sequence: Scenario = {
  name: 'sequence',
  summary: 'Round-robin keys with per-key sequence numbers, for exactly-once checks.',
  fields: { id: 'integer', key: 'string', value: 'integer', seq: 'integer', ts: 'timestamp' },
  defaultKeys: 10,
  row(i, rng, ctx) {
    return {
      id: i,
      key: `k${i % ctx.keys}`,
      value: rng.int(1000),
      seq: Math.floor(i / ctx.keys) + 1,
      ts: slot(ctx, i) - disorder(ctx, rng),
    };
  },
};
