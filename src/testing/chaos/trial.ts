import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { LocalCluster } from '../../runtime/localCluster.ts';
import type { ClusterResult } from '../../runtime/localCluster.ts';
import { isDurableBackend } from '../../state/backend.ts';
import { planOrThrow, runPipeline } from '../runPipeline.ts';
import { seededRng } from '../../core/rng.ts';
import { IndexedDbStateBackend } from '../../storage/indexeddb/indexedDbBackend.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import type { Row } from '../../core/types.ts';
import { atParallelism, chaosCases, SEQUENCE_VIOLATIONS } from './cases.ts';
import { viewProblems } from './checks.ts';

/** Where a kill falls: while records flow, while a checkpoint's asynchronous part (the snapshot write) is in flight, or while the job recovers from the previous kill. */
export type KillPhase = 'processing' | 'checkpoint-async' | 'recovery';

export interface TrialSpec {
  seed: number;
  caseName: string;
  parallelism: 1 | 2 | 4;
  state: 'memory' | 'indexeddb';
  /** Each kill: the fraction of the failure-free run's steps it waits for, and its phase. */
  kills: { at: number; phase: KillPhase }[];
  scheduleSeed: number;
}

export interface TrialResult {
  spec: TrialSpec;
  ok: boolean;
  problems: string[];
  restarts: number;
  /** Kills that actually fired (a kill planned after the end of the job does not). */
  fired: number;
  ms: number;
}

const PARALLELISM = [1, 2, 4] as const;
const STATES = ['memory', 'indexeddb'] as const;
const PHASES: KillPhase[] = ['processing', 'checkpoint-async', 'recovery'];

/** The trial a seed stands for: the same seed is the same trial on any machine. */
export function trialSpec(seed: number): TrialSpec {
  const cases = chaosCases();
  const rng = seededRng(seed * 2654435761);
  const n = 1 + rng.int(3);
  // The first kill has no recovery to fall into; a later one may.
  const kills = Array.from({ length: n }, () => 0.05 + rng.next() * 0.85)
    .sort((a, b) => a - b)
    .map((at, i) => ({ at, phase: i === 0 ? PHASES[rng.int(2)] : PHASES[rng.int(3)] }));
  // Round-robin over cases so a run of consecutive seeds covers them all; the rest is seeded.
  return { seed, caseName: cases[seed % cases.length].name, parallelism: PARALLELISM[rng.int(3)], state: STATES[rng.int(2)], kills, scheduleSeed: seed };
}

const OPTS = { checkpointIntervalMs: 30, batchSize: 16, restart: { type: 'fixedDelay', delayMs: 3, maxAttempts: 10 } } as const;
const references = new Map<string, Record<string, Row[]>>();
const horizons = new Map<string, number>();

function reference(caseName: string, doc: Record<string, unknown>): Record<string, Row[]> {
  let r = references.get(caseName);
  if (!r) references.set(caseName, (r = runPipeline(doc).views));
  return r;
}

function clusterFor(plan: JobPlan, spec: TrialSpec, withKills: boolean): LocalCluster {
  const factory = spec.state === 'indexeddb' ? new IDBFactory() : null;
  return new LocalCluster(plan, {
    ...OPTS,
    jobId: `chaos-${spec.seed}-${withKills ? 'k' : 'p'}`,
    scheduleSeed: spec.scheduleSeed,
    backend: factory ? async (node, index, time) => new IndexedDbStateBackend({ dbName: `chaos-${spec.seed}-${withKills ? 'k' : 'p'}`, subtask: `${node.id}#${index}`, time, idbFactory: factory, locks: null }).open() : undefined,
  });
}

/** Releases a finished run's IndexedDB namespaces (they are claimed per process). */
function closeBackends(cluster: LocalCluster): void {
  for (const r of cluster.subtasks()) if (r.task && isDurableBackend(r.task.state)) r.task.state.close();
}

/**
 * Drives the cluster step by step and kills a seeded subtask at each planned point: after the
 * planned step, once a snapshot write is in flight (checkpoint-async), or within the first few
 * steps after the previous restore (recovery).
 */
async function runWithKills(cluster: LocalCluster, spec: TrialSpec, horizon: number): Promise<{ res: ClusterResult; fired: number }> {
  const rng = seededRng(spec.seed + 17);
  const pending = spec.kills.map((k) => ({ ...k, step: Math.max(1, Math.floor(k.at * horizon)), delay: 1 + rng.int(4) }));
  const writing = new Set<number>();
  let restoredAt = -1;
  let step = 0;
  let fired = 0;
  cluster.onEvent((e) => {
    if (e.type === 'snapshot') writing.add(e.checkpointId);
    else if (e.type === 'checkpoint' && e.status !== 'triggered') writing.delete(e.checkpointId);
    else if (e.type === 'restored') (writing.clear(), (restoredAt = step));
  });
  await cluster.start();
  restoredAt = -1;
  while ((await cluster.step()) === 'running') {
    step++;
    const k = pending[0];
    if (!k) continue;
    // A recovery kill follows its predecessor: it waits for the restore, then fires 1-4 steps in.
    const due = k.phase === 'recovery' ? restoredAt >= 0 && step - restoredAt >= k.delay : step >= k.step && (k.phase === 'processing' || writing.size > 0);
    if (!due) continue;
    pending.shift();
    restoredAt = -1;
    const live = cluster.subtasks().filter((r) => !r.finished);
    const among = live.length ? live : cluster.subtasks();
    cluster.kill(among[rng.int(among.length)].id);
    fired++;
  }
  cluster.onEvent(null);
  const res = cluster.result();
  closeBackends(cluster);
  return { res, fired };
}

export async function runTrial(spec: TrialSpec): Promise<TrialResult> {
  const t0 = performance.now();
  const c = chaosCases().find((x) => x.name === spec.caseName);
  if (!c) throw new Error(`no chaos case named ${spec.caseName}`);
  const expected = reference(c.name, c.doc);
  const plan = planOrThrow(atParallelism(c.doc, spec.parallelism));
  const hk = `${c.name}/${spec.parallelism}/${spec.state}/${spec.scheduleSeed % 4}`;
  let horizon = horizons.get(hk);
  if (horizon === undefined) {
    const plainCluster = clusterFor(plan, { ...spec, scheduleSeed: spec.scheduleSeed % 4 }, false);
    const plain = await plainCluster.run();
    closeBackends(plainCluster);
    horizons.set(hk, (horizon = plain.steps));
  }
  const { res, fired } = await runWithKills(clusterFor(plan, spec, true), spec, horizon);
  const problems: string[] = [];
  if (res.status !== 'finished') problems.push(`the job ${res.status}: ${res.reason}`);
  else {
    problems.push(...viewProblems(plan, expected, res.views, res.changelogs));
    const seq = res.views[SEQUENCE_VIOLATIONS] ?? [];
    if (seq.length) problems.push(`per-key sequence broken: ${seq.slice(0, 3).map((v) => JSON.stringify(v)).join(', ')}${seq.length > 3 ? ` and ${seq.length - 3} more` : ''}`);
  }
  return { spec, ok: problems.length === 0, problems, restarts: res.restarts, fired, ms: performance.now() - t0 };
}
