import type { RunPlan } from './lib/stats.ts';
import type { LatencySize } from './page/latency.ts';
import type { UiSize } from './suites/ui.ts';
import type { SqlEditorSize } from './suites/sqlEditor.ts';
import type { StateBackendSize } from './suites/stateBackend.ts';
import type { ThreadedSize } from './suites/threaded.ts';

/** Sizes per mode. --quick keeps every figure but shrinks inputs so the suite ends within 3 minutes on 2 cores. */
export interface Sizes {
  plan: RunPlan;
  keyedCount: { events: number; keys: number };
  crossWorker: { events: number; keys: number; batch: number; window: number };
  latency: LatencySize;
  stateBackend: StateBackendSize;
  /** The keyed count on the threaded runtime (Node worker_threads), for CPU per record. */
  threaded: ThreadedSize;
  checkpointKeys: number;
  checkpointScaling: Record<string, number>;
  scalingEvents: number;
  scalingKeys: Record<string, number>;
  /** The 1M-key points need ≥ 1M events per run: --quick takes them once, without warm-up (marked in the report). */
  largePlan: RunPlan;
  largeKeys: Record<string, number>;
  /** A full checkpoint of 1M keys for the top of the checkpoint curve when checkpointKeys is smaller (full runs only). */
  largeCheckpoint: boolean;
  nexmarkEvents: number;
  incremental: { base: number; updates: number };
  memoryKeys: number;
  /** CSV rows for the ingest-vs-papaparse figure. */
  csvRows: number;
  /** The designer app in headless Chromium: fps and throughput with the UI vs headless. */
  ui: UiSize;
  /**
   * How long a suite may take (each Nexmark query on its own) before its figures read "failed:
   * timed out" and the run goes on: several times what a healthy run takes on this machine.
   */
  timeouts: { suiteMs: number; nexmarkQueryMs: number };
  /** The SQL tab: warm keystrokes timed to their underline, and runs of the 50-statement import. */
  sqlEditor: SqlEditorSize & { importRuns: number };
}

export const FULL: Sizes = {
  plan: { runs: 5, warmups: 1 },
  keyedCount: { events: 1_000_000, keys: 100_000 },
  crossWorker: { events: 1_000_000, keys: 100_000, batch: 1024, window: 16 },
  latency: { ratePerSec: 100_000, seconds: 3, keys: 1_000, parallelism: 2, checkpointIntervalMs: 100, warmupMs: 500, searchSteps: 4 },
  // Long enough that the memory side, the faster one, takes several checkpoints at 1 s (1M events ran in 0.7 s: none).
  stateBackend: { events: 5_000_000, keys: 100_000, checkpointIntervalMs: 1000 },
  threaded: { events: 300_000, keys: 100_000, parallelism: 2, checkpointIntervalMs: 1000 },
  checkpointKeys: 1_000_000,
  checkpointScaling: { keys1k: 1_000, keys10k: 10_000, keys100k: 100_000 },
  scalingEvents: 1_000_000,
  scalingKeys: { keys1k: 1_000, keys10k: 10_000, keys100k: 100_000 },
  largePlan: { runs: 5, warmups: 1 },
  largeKeys: { keys1M: 1_000_000 },
  nexmarkEvents: 1_000_000,
  incremental: { base: 1_000_000, updates: 20_000 },
  memoryKeys: 1_000_000,
  csvRows: 1_000_000,
  largeCheckpoint: true,
  ui: { runs: 5, warmups: 1, warmupMs: 2_000, measureMs: 10_000, tabMs: 3_000 },
  timeouts: { suiteMs: 20 * 60_000, nexmarkQueryMs: 10 * 60_000 },
  sqlEditor: { keystrokes: 15, importRuns: 30 },
};

export const QUICK: Sizes = {
  plan: { runs: 5, warmups: 1 },
  keyedCount: { events: 40_000, keys: 20_000 },
  crossWorker: { events: 60_000, keys: 20_000, batch: 1024, window: 16 },
  latency: { ratePerSec: 100_000, seconds: 1, keys: 1_000, parallelism: 2, checkpointIntervalMs: 100, warmupMs: 200, searchSteps: 2 },
  // Enough events for the 1 s interval to come round inside the timed region at least once.
  stateBackend: { events: 400_000, keys: 20_000, checkpointIntervalMs: 1000 },
  threaded: { events: 60_000, keys: 20_000, parallelism: 2, checkpointIntervalMs: 1000 },
  checkpointKeys: 100_000,
  checkpointScaling: { keys1k: 1_000, keys10k: 10_000 },
  scalingEvents: 50_000,
  scalingKeys: { keys1k: 1_000, keys10k: 10_000, keys100k: 100_000 },
  largePlan: { runs: 1, warmups: 0 },
  largeKeys: { keys1M: 1_000_000 },
  nexmarkEvents: 20_000,
  incremental: { base: 100_000, updates: 5_000 },
  memoryKeys: 200_000,
  csvRows: 200_000,
  largeCheckpoint: false,
  ui: { runs: 3, warmups: 1, warmupMs: 1_000, measureMs: 3_000, tabMs: 1_000 },
  timeouts: { suiteMs: 5 * 60_000, nexmarkQueryMs: 2 * 60_000 },
  sqlEditor: { keystrokes: 7, importRuns: 10 },
};

/** Tiny sizes for the smoke test: the harness runs end to end, the numbers mean nothing. */
export const SMOKE: Sizes = {
  plan: { runs: 1, warmups: 0 },
  keyedCount: { events: 2_000, keys: 500 },
  crossWorker: { events: 2_000, keys: 500, batch: 256, window: 4 },
  latency: { ratePerSec: 10_000, seconds: 0.2, keys: 100, parallelism: 2, checkpointIntervalMs: 50, warmupMs: 50, searchSteps: 1 },
  stateBackend: { events: 20_000, keys: 500, checkpointIntervalMs: 1 },
  threaded: { events: 2_000, keys: 500, parallelism: 2, checkpointIntervalMs: 50 },
  checkpointKeys: 500,
  checkpointScaling: { keys1k: 1_000 },
  scalingEvents: 2_000,
  scalingKeys: { keys1k: 1_000 },
  largePlan: { runs: 1, warmups: 0 },
  largeKeys: { keys2k: 2_000 },
  nexmarkEvents: 2_000,
  incremental: { base: 2_000, updates: 200 },
  memoryKeys: 2_000,
  csvRows: 5_000,
  largeCheckpoint: false,
  ui: { runs: 1, warmups: 0, warmupMs: 200, measureMs: 500, tabMs: 200 },
  timeouts: { suiteMs: 60_000, nexmarkQueryMs: 60_000 },
  sqlEditor: { keystrokes: 1, importRuns: 2 },
};
