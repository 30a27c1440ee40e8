/// <reference lib="webworker" />
// One suite per fresh worker: the page sends { suite, args } and gets the figures back.
import initSqlJs from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { keyedCountSuite } from '../suites/keyedCount.ts';
import { scalingSuite } from '../suites/scaling.ts';
import { nexmarkSuite } from '../suites/nexmark.ts';
import { incrementalSuite } from '../suites/incremental.ts';
import { stateBackendSuite } from '../suites/stateBackend.ts';
import { checkpointScalingSuite, checkpointSuite } from '../suites/checkpoint.ts';
import type { RunPlan } from '../lib/stats.ts';
import { measureSqlImport } from '../suites/sqlImport.ts';

export interface SuiteRequest {
  suite: string;
  plan: RunPlan;
  args: Record<string, unknown>;
}

type A = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const suites: Record<string, (a: A, plan: RunPlan) => Promise<Record<string, number>>> = {
  keyedCount: (a, p) => keyedCountSuite(a.size, p),
  scaling: (a, p) => scalingSuite(a.events, p, a.keys),
  nexmark: (a, p) => nexmarkSuite(a.events, p, a.queries),
  incremental: async (a, p) => incrementalSuite(await initSqlJs({ locateFile: () => wasmUrl }), a.base, a.updates, p),
  stateBackend: (a, p) => stateBackendSuite(a.size, p),
  checkpoint: (a, p) => checkpointSuite(a.keys, p),
  checkpointScaling: (a, p) => checkpointScalingSuite(a.sizes, p),
  sqlEditorImport: async (a) => measureSqlImport(a.runs, 'sqlEditor.import'),
};

self.onmessage = async (e: MessageEvent<SuiteRequest>) => {
  const { suite, plan, args } = e.data;
  try {
    const run = suites[suite];
    if (!run) throw new Error(`unknown suite ${suite}`);
    self.postMessage({ ok: true, figures: await run(args, plan) });
  } catch (err) {
    self.postMessage({ ok: false, error: String((err as Error)?.stack ?? err) });
  }
};
