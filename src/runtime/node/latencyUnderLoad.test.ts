import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSpawn } from './nodeSpawn.ts';
import type { Spawn } from '../threaded/spawn.ts';
import { startCpuHog } from '../../testing/chaos/cpuHog.ts';
import { latencyLoadTrial } from '../../testing/chaos/loadTrial.ts';

// The latency bench's job on real worker_threads beside a CPU hog taking about 1.5 of the
// machine's cores, with heartbeat gaps below the timeout (jitter) and above it (a restart).
let spawn: Spawn;
let stopHog: () => Promise<void>;
beforeAll(async () => {
  spawn = await nodeSpawn();
  stopHog = startCpuHog(1.5);
});
afterAll(() => stopHog());

describe('the latency job under CPU load and heartbeat jitter', () => {
  for (const interval of [100, 20]) {
    it(`publishes exactly one change per record and logs its restart, checkpoints every ${interval} ms`, async () => {
      const r = await latencyLoadTrial(spawn, { records: 20_000, keys: 500, checkpointIntervalMs: interval, run: interval });
      expect(r.problems, r.log.join('\n')).toEqual([]);
    }, 90_000);
  }
});
