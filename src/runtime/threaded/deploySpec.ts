import type { JobPlan } from '../../pipeline/plan.ts';
import type { SubtaskSnapshot } from '../../checkpoint/types.ts';
import { subtasksOn } from './assignment.ts';
import type { JobOptions } from './jobOptions.ts';
import { portablePlan } from './portablePlan.ts';
import type { DeploySpec, UdfThrow } from './protocol.ts';
import type { FeedBacklog } from '../../engine/feedLog.ts';
import { DEFAULT_CODE_LIMITS } from '../../engine/codeHost.ts';

export interface SpecInputs {
  jobId: string;
  plan: JobPlan;
  workers: number;
  opts: JobOptions;
  udfThrows: readonly UdfThrow[];
  /** Live feeds' backlogs, for the workers running their sources. */
  feeds?: Record<string, FeedBacklog>;
  /** Records per second per source subtask (JobManager.setPace); absent: unpaced. */
  sourcePace?: number | null;
}

const DEFAULT_BATCH = 256;
/** Records a channel may have in flight by default: what a barrier may have to wait behind at each hop. */
const CREDIT_RECORDS = 1024;

/**
 * Credit per channel in messages, from a budget in records: with 8 batches of 256 in flight, a
 * barrier waited behind 2,048 records at every hop. Two messages keep sender and receiver busy at once.
 */
export function creditFor(batchSize: number): number {
  return Math.max(2, Math.min(8, Math.round(CREDIT_RECORDS / Math.max(1, batchSize))));
}

/**
 * Credit of one channel. A sender that splits each batch among `receivers` subtasks (a keyed or
 * rebalanced edge) sends batches of about batchSize / receivers records: counted in full batches, its
 * channels held half (or less) of the record budget, and a sender whose thread is held between
 * credit returns (a paced source, a long slice) ran dry every slice. With the default credit, such
 * a channel gets the messages of the same record budget; a capacity given by the job stays as given.
 */
export function channelCredit(spec: Pick<DeploySpec, 'channelCapacity' | 'creditByRecords' | 'batchSize'>, receivers: number): number {
  return spec.creditByRecords ? creditFor(spec.batchSize / Math.max(1, receivers)) : spec.channelCapacity;
}

/** What worker `worker` needs: the plan, inputs of its sources, snapshots of its nodes, settings. */
export function deploySpec(s: SpecInputs, attempt: number, worker: number, snaps: Record<string, SubtaskSnapshot[]> | null): DeploySpec {
  const { opts } = s;
  const ownWorker = opts.ownWorker ?? [];
  const here = subtasksOn(s.plan, worker, s.workers, ownWorker);
  const nodes = new Set(here.map((p) => p.node.id));
  const inputs = Object.fromEntries(Object.entries(opts.inputs ?? {}).filter(([id]) => nodes.has(id)));
  const restore = snaps ? Object.fromEntries(Object.entries(snaps).filter(([id]) => nodes.has(id))) : null;
  return {
    jobId: s.jobId,
    attempt,
    plan: portablePlan(s.plan, nodes),
    worker,
    workers: s.workers,
    ownWorker: ownWorker.map((g) => (typeof g === 'string' ? g : [...g])),
    inputs,
    inputNames: Object.fromEntries(Object.entries(opts.inputs ?? {}).map(([id, input]) => [id, input.name])),
    feeds: Object.fromEntries(Object.entries(s.feeds ?? {}).filter(([id]) => nodes.has(id))),
    restore,
    channelCapacity: opts.channelCapacity ?? creditFor(opts.batchSize ?? DEFAULT_BATCH),
    creditByRecords: opts.channelCapacity === undefined,
    batchSize: opts.batchSize ?? DEFAULT_BATCH,
    encoding: opts.encoding ?? 'columnar',
    heartbeatMs: opts.heartbeatMs ?? 100,
    codeLimits: opts.codeLimits ?? DEFAULT_CODE_LIMITS,
    state: opts.state ?? 'memory',
    storageBucket: opts.storageBucket ?? null,
    incremental: opts.incremental ?? true,
    maxRecordsPerCheckpoint: opts.checkpointEveryRecords ?? null,
    failOnUdfError: opts.failOnUdfError ?? false,
    preview: opts.onPreview !== undefined,
    publishOutput: opts.keepChangelog !== false || opts.onPublish !== undefined || opts.onPreview !== undefined,
    chain: opts.chain ?? true,
    sourcePace: s.sourcePace ?? null,
    udfThrows: s.udfThrows.filter((t) => here.some((p) => p.node.id === t.node && p.index === t.index)),
  };
}
