import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { JobInput } from './protocol.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import { seededRng } from '../../core/rng.ts';
import { subtaskId } from '../../checkpoint/types.ts';
import { StorageFullError } from '../../storage/indexeddb/errors.ts';

/**
 * Wraps the job's checkpoint store with the fault-injection switches: fail the next snapshot
 * write, or behave as a full disk (every write and commit fails with a quota error).
 */
export class FaultyStore implements CheckpointStore {
  private failNext: string | null = null;
  private full = false;

  constructor(readonly inner: CheckpointStore) {}

  locate(jobId: string, checkpointId: number, ref?: string): { manifest: string; snapshot?: string } | undefined {
    return this.inner.locate?.(jobId, checkpointId, ref);
  }

  failNextWrite(reason = 'injected snapshot write failure'): void {
    this.failNext = reason;
  }

  fill(): void {
    this.full = true;
  }

  private check(what: string): void {
    if (this.full) throw new StorageFullError(`storage is full (quota exceeded) while ${what}`);
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    this.check(`writing checkpoint ${checkpointId} of ${snap.subtask}`);
    if (this.failNext) {
      const reason = this.failNext;
      this.failNext = null;
      throw new Error(reason);
    }
    return this.inner.writeSubtask(jobId, checkpointId, snap);
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    this.check(`committing checkpoint ${manifest.checkpointId}`);
    return this.inner.commit(manifest);
  }

  latest = (jobId: string) => this.inner.latest(jobId);
  list = (jobId: string) => this.inner.list(jobId);
  readSubtask = (ref: string) => this.inner.readSubtask(ref);
  discard = (jobId: string, id: number) => this.inner.discard(jobId, id);
  abort = (jobId: string, id: number) => this.inner.abort(jobId, id);
}

/** How many records the sources will read, when the document says (inline rows, generator count, file lines). */
export function estimateSourceRecords(plan: JobPlan, inputs: Record<string, JobInput>): number | null {
  let total = 0;
  for (const n of plan.nodes) {
    if (!n.isSource) continue;
    const p = n.params as { rows?: unknown[]; count?: number };
    if (n.kind === 'inlineSource' && Array.isArray(p.rows)) total += p.rows.length;
    else if (n.kind === 'generatorSource' && typeof p.count === 'number') total += p.count;
    else if (n.kind === 'fileSource' && inputs[n.id] && 'lines' in inputs[n.id]) total += (inputs[n.id] as { lines: readonly string[] }).lines.length;
    else if (n.kind === 'fileSource' && inputs[n.id] && 'lineCount' in inputs[n.id]) total += (inputs[n.id] as { lineCount: number }).lineCount;
    else return null;
  }
  return total;
}

/** Where a chaos kill falls, as in the in-process chaos matrix: while records flow, during a checkpoint's asynchronous part (its snapshot write), or during the recovery from the kill before. */
export type ChaosPhase = 'processing' | 'checkpoint-async' | 'recovery';

export interface ChaosKill {
  /** Kill once the sources together have read this many records... */
  atRecords: number;
  /** ...or, when the input size is unknown, this long after the job started. */
  atMs: number;
  subtask: string;
  /**
   * processing: at that point. checkpoint-async: from that point on, at the next snapshot the
   * manager writes, while the write is in flight. recovery: as soon as the workers restored
   * after the kill before start, whatever the point (never the first kill).
   */
  phase: ChaosPhase;
}

/**
 * `--chaos K --seed S`: K kills of seeded-random subtasks at seeded-random points of the run,
 * measured in source progress so the same seed hits the same region of the input on any machine.
 * The phases come from a second stream of the seed, so a seed keeps its points and subtasks.
 */
export function chaosPlan(plan: JobPlan, kills: number, seed: number, totalRecords: number | null): ChaosKill[] {
  const rng = seededRng(seed);
  const phases = seededRng(Math.imul(seed, 2654435761) + 7);
  const subtasks = plan.nodes.flatMap((n) => Array.from({ length: n.parallelism }, (_, i) => subtaskId(n.id, i)));
  const out: Omit<ChaosKill, 'phase'>[] = [];
  for (let k = 0; k < kills; k++) {
    out.push({ atRecords: totalRecords === null ? Infinity : 1 + rng.int(Math.max(1, totalRecords - 1)), atMs: 20 + rng.int(500), subtask: rng.pick(subtasks) });
  }
  const order = ['processing', 'checkpoint-async', 'recovery'] as const;
  return out
    .sort((a, b) => a.atRecords - b.atRecords || a.atMs - b.atMs)
    .map((k, i) => ({ ...k, phase: order[phases.int(i === 0 ? 2 : 3)] }));
}
