// Runs the Node side of every suite at tiny sizes so that the harness never rots. No targets are
// asserted (they are reported by `npm run bench`); only that each figure comes out as a number.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import initSqlJs from 'sql.js';
import { SMOKE } from './sizes.ts';
import { keyedCountSuite, runDbIvm, runEngine, runHandLoop, runRxjs } from './suites/keyedCount.ts';
import { scalingSuite } from './suites/scaling.ts';
import { nexmarkPlan, nexmarkSuite, runQuery } from './suites/nexmark.ts';
import { NEXMARK_QUERIES } from './nexmark/index.ts';
import { incrementalSuite } from './suites/incremental.ts';
import { stateBackendSuite } from './suites/stateBackend.ts';
import { checkpointScalingSuite, checkpointSuite } from './suites/checkpoint.ts';
import { keyedEvents } from './lib/events.ts';
import { inProcessSuite } from './suites/inProcess.ts';
import { FIGURES } from './figures.ts';
import { renderReport, table } from './report.ts';
import { targetTable } from './reportTables.ts';
import { NO_PREVIEW, notSustained } from './lib/latencyText.ts';

const numbers = (figs: Record<string, number>) => {
  for (const [k, v] of Object.entries(figs)) expect(Number.isFinite(v), `${k} = ${v}`).toBe(true);
};

describe('bench harness (smoke, tiny sizes)', () => {
  it('computes the same keyed totals on every side', () => {
    const ev = keyedEvents(3_000, 300);
    const loop = runHandLoop(ev).view;
    expect(runEngine(ev).viewRows).toBe(300);
    const rx = runRxjs(ev).view;
    const ivm = runDbIvm(ev).view;
    expect(rx.size).toBe(300);
    expect(ivm.size).toBe(300);
    for (const [k, t] of loop) {
      expect(rx.get(k)?.cnt).toBe(t.cnt);
      expect([...ivm.values()].some((x) => x.cnt === t.cnt)).toBe(true);
    }
  });

  it('keyedCount and scaling', async () => {
    numbers(await keyedCountSuite(SMOKE.keyedCount, SMOKE.plan));
    numbers(await scalingSuite(SMOKE.scalingEvents, SMOKE.plan, SMOKE.scalingKeys));
  });

  it('every Nexmark query compiles, runs and produces results', async () => {
    const figs = await nexmarkSuite(SMOKE.nexmarkEvents, SMOKE.plan);
    numbers(figs);
    for (const q of Object.keys(NEXMARK_QUERIES)) {
      expect(figs[`nexmark.${q}.eventsPerSecPerCore`]).toBeGreaterThan(0);
      expect(figs[`nexmark.${q}.deadLetters`]).toBeUndefined();
      // q7 needs a window to close and q12's processing-time windows rarely fire in a short run.
      if (q !== 'q12' && q !== 'q7') expect(figs[`nexmark.${q}.results`], q).toBeGreaterThan(0);
    }
  });

  it('a Nexmark query checkpoints as it runs and gives the same results', async () => {
    for (const q of ['q5']) {
      const plan = nexmarkPlan(q, SMOKE.nexmarkEvents);
      const plain = await runQuery(plan, SMOKE.nexmarkEvents, Infinity);
      const checkpointed = await runQuery(plan, SMOKE.nexmarkEvents, 0);
      expect(plain.checkpoints).toBe(0);
      expect(checkpointed.checkpoints, q).toBeGreaterThan(0);
      expect(checkpointed.results, q).toBe(plain.results);
    }
  });

  it('incremental view vs sql.js recompute', async () => {
    numbers(await incrementalSuite(await initSqlJs(), SMOKE.incremental.base, SMOKE.incremental.updates, SMOKE.plan));
  });

  it('IndexedDB backend (fake-indexeddb): state backend ratio, checkpoints, recovery', async () => {
    const sb = await stateBackendSuite(SMOKE.stateBackend, SMOKE.plan);
    numbers(sb);
    // Both sides checkpoint inside the timed region (the smoke interval is 1 ms).
    expect(sb['stateBackend.memoryCheckpointsPerRun']).toBeGreaterThanOrEqual(1);
    expect(sb['stateBackend.indexeddbCheckpointsPerRun']).toBeGreaterThanOrEqual(1);
    numbers(await checkpointSuite(SMOKE.checkpointKeys, SMOKE.plan));
    numbers(await checkpointScalingSuite(SMOKE.checkpointScaling, SMOKE.plan));
  });

  it('in-process runtime: CPU per record', async () => {
    numbers(await inProcessSuite(SMOKE.keyedCount, SMOKE.plan));
  });

  it('renders the table and the report, charts included', () => {
    const results = Object.fromEntries(FIGURES.map((f, i) => [f.name, i % 3 ? i * 1000 : null]));
    expect(table(results)).toContain('keyedCount.ratioToLoop');
    const md = renderReport({ results, mode: 'quick', sizes: {}, machine: 'test', optimizations: '', durationSec: 1 });
    expect(md).toContain('<svg');
    expect(md).toContain('latency.committedOverIntervalP99Ms');
    expect(md).toContain('## Targets');
  });

  it('judges latency texts: "not sustained" misses, "n/a" is neither met nor missed', () => {
    const results = { 'latency.previewP99Ms': NO_PREVIEW, 'latency.committedOverIntervalP99Ms': notSustained(100_000, 61_000, 58_000, 4), 'memory.bytesPerKey': 90 };
    const targets = targetTable(results);
    expect(targets).toMatch(/`latency.previewP99Ms` \| ≤ 50 at 100k ev\/s sustained \| n\/a: no preview output \| n\/a \|/);
    expect(targets).toMatch(/not sustained \(61k of 100k ev\/s; highest sustained: 58k ev\/s\) \| missed \|/);
    expect(targets).toMatch(/`memory.bytesPerKey` \| ≤ 100 \| 90 B \| met \|/);
  });
});
