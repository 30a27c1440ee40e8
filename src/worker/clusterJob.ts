import type { PipelineDocument } from '../pipeline/document.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { Element, Row } from '../core/types.ts';
import { LocalCluster } from '../runtime/localCluster.ts';
import type { ClusterEvent } from '../runtime/localCluster.ts';
import { ClusterObserver } from '../runtime/observe/observer.ts';
import type { LoadOptions } from './protocol.ts';
import { CommittedView } from './committedView.ts';
import { openJobStorage, wipeJob } from './jobStorage.ts';
import type { JobStorage } from './jobStorage.ts';
import { chunkReader, importJobSavepoint } from './savepoints.ts';
import { fileInputs } from '../runtime/browser/blobBytes.ts';
import { Pacer } from './pacer.ts';
import { LiveFeeds } from '../runtime/feeds/liveFeeds.ts';
import type { WebSocketConstructor } from '../runtime/feeds/webSocketTransport.ts';
import type { SourceRows } from '../runtime/sourceRows.ts';
import type { FeedStatus } from '../engine/feedConnection.ts';

/** The job a session drives: its cluster, the observatory over it, where its state lives, its committed views. */
export interface Job {
  plan: JobPlan;
  jobId: string;
  backend: 'memory' | 'indexeddb';
  cluster: LocalCluster;
  observer: ClusterObserver;
  storage: JobStorage;
  views: Map<string, CommittedView>;
  /** Connections of the job's live feed sources (none when it has none). */
  feeds: LiveFeeds;
}

export interface DeployHooks {
  onPublish(sinkId: string, els: readonly Element[]): void;
  onEvent(job: Job, e: ClusterEvent): void;
  info(message: string): void;
  /** A live feed connected, dropped or closed. */
  feedChanged?(node: string, s: FeedStatus): void;
}

/**
 * The connections of a job's live feeds in this worker: the global WebSocket and fetch, wall-clock
 * timers. A closed feed does not end its source here: the run goes on until the user stops it.
 */
function openFeeds(plan: JobPlan, retain: number, hooks: DeployHooks): LiveFeeds {
  const g = globalThis as { WebSocket?: unknown };
  return new LiveFeeds(plan, {
    webSocket: (g.WebSocket as WebSocketConstructor | undefined) ?? null,
    fetch: (input, init) => fetch(input, init),
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), random: Math.random },
    clock: { now: () => performance.now() },
    retain,
    session: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
    endOnClose: false,
    onChange: (node, s) => hooks.feedChanged?.(node, s),
  });
}

/**
 * Opens the job's storage (wiped unless resuming; a savepoint imported first), builds the cluster and
 * its observer, and starts it (restoring the latest checkpoint of the job, if any). On failure the
 * storage is released again and the error is thrown.
 */
export async function deployJob(plan: JobPlan, doc: PipelineDocument, opts: LoadOptions, hooks: DeployHooks, sourceRows?: SourceRows): Promise<Job> {
  const backend = opts.backend ?? doc.settings?.stateBackend ?? 'memory';
  const jobId = opts.jobId ?? doc.name;
  const sinks = plan.nodes.filter((n) => n.isSink);
  const views = new Map(sinks.map((n) => [n.id, new CommittedView((n.params.primaryKey as string[] | undefined) ?? n.inputs.in?.uniqueKey ?? null)]));
  const storage = openJobStorage(backend, jobId, plan.maxParallelism);
  let cluster: LocalCluster | null = null;
  const retain = doc.settings?.checkpoint?.retain ?? 5;
  const feeds = openFeeds(plan, retain, hooks);
  try {
    if (opts.savepoint) {
      await wipeJob(storage, jobId);
      const id = await importJobSavepoint(opts.savepoint, storage.store, jobId);
      hooks.info(`savepoint imported as checkpoint ${id}; the job starts from it`);
    } else if (!opts.resume) await wipeJob(storage, jobId);
    cluster = new LocalCluster(plan, {
      jobId,
      store: storage.store,
      backend: storage.backend,
      checkpointIntervalMs: null, // a wall-clock interval: the pacer triggers checkpoints
      retain,
      readers: feeds.readers,
      sourceRows,
      batchSize: Pacer.batchSizeFor(opts.speed),
      inputs: fileInputs(opts.files),
      keepChangelog: false, // views apply each published epoch; a log of every change would only grow
      loadClock: () => performance.now(), // busy and backpressured time per subtask, in wall time
      onPublish: (sinkId, els) => {
        views.get(sinkId)?.apply(els);
        hooks.onPublish(sinkId, els);
      },
    });
    // Edge rates in wall time, as the run status and the operators' load figures count them.
    const observer = new ClusterObserver(cluster, { store: storage.store, jobId, readChunks: chunkReader(cluster), rateClock: () => performance.now() });
    const job: Job = { plan, jobId, backend, cluster, observer, storage, views, feeds };
    cluster.onEvent((e) => {
      observer.onEvent(e);
      hooks.onEvent(job, e);
    });
    await cluster.start();
    feeds.start();
    return job;
  } catch (e) {
    feeds.stop('the job could not start');
    await storage.close(cluster).catch(() => undefined);
    throw e;
  }
}

/** A sink's table as its subtasks hold it (after a restore: as of the checkpoint). */
export function sinkRows(cluster: LocalCluster, sinkId: string): Row[] {
  return cluster.subtasksOf(sinkId).flatMap((r) => (r.task?.operator as { rows?: () => Row[] } | undefined)?.rows?.() ?? []);
}
