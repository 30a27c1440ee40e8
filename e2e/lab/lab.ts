// The runtime lab page (e2e/lab/index.html, built by e2e/lab/serveLab.ts): lets e2e tests drive BrowserJob on real Web Workers and
// real IndexedDB through `window.__weirLab`. Never part of the designer's build.
import type { Row } from '../../src/core/types.ts';
import type { CheckpointRecord } from '../../src/checkpoint/types.ts';
import { IndexedDbCheckpointStore } from '../../src/storage/indexeddb/checkpointStore.ts';
import { BrowserJob } from '../../src/runtime/browser/browserJob.ts';
import type { BrowserJobOptions } from '../../src/runtime/browser/browserJob.ts';
import { TearingStore } from './tearingStore.ts';
import { bucketIndexedDb } from '../../src/runtime/browser/storageBucket.ts';
import { fillWithBallast, removeBallast } from './ballast.ts';
import type { TornWrite } from './tearingStore.ts';
import { browserSpawn } from '../../src/runtime/browser/browserSpawn.ts';
import { latencyLoadTrial } from '../../src/testing/chaos/loadTrial.ts';
import type { LoadTrialResult } from '../../src/testing/chaos/loadTrial.ts';
import { startBrowserHog } from './browserHog.ts';
import { LiveFeeds } from '../../src/runtime/feeds/liveFeeds.ts';
import type { WebSocketConstructor } from '../../src/runtime/feeds/webSocketTransport.ts';
import { compile } from '../../src/pipeline/compile.ts';

/** Structured-cloneable job options (no callbacks): what a test can pass through page.evaluate. */
export type LabOptions = Omit<BrowserJobOptions, 'store' | 'log' | 'onPublish' | 'onDeadLetters' | 'inputs' | 'feeds' | 'onPreview'> & {
  /** Created with this quota if the job's storageBucket does not exist yet. */
  bucketQuotaBytes?: number;
  /** Connect the job's feedSources from this page (a feed that closes ends its source, as on the command line). */
  liveFeeds?: boolean;
  /** With liveFeeds: start the job only once every feed has received its first message. */
  waitForFeeds?: boolean;
  /** Count the sink changes previewed before their checkpoint commits them (see `previewed()`). */
  preview?: boolean;
};

const factoryOf = async (bucket?: string, quotaBytes?: number) => (bucket ? bucketIndexedDb(bucket, quotaBytes) : undefined);
const storeOf = async (bucket?: string) => new IndexedDbCheckpointStore({ idbFactory: await factoryOf(bucket) });

export interface LabResult {
  status: 'finished' | 'failed';
  reason?: string;
  restarts: number;
  recoveries: { reason: string; recoveryMs: number; restoredFrom: number | null }[];
  views: Record<string, Row[]>;
  checkpoints: Pick<CheckpointRecord, 'checkpointId' | 'status' | 'reason'>[];
  elapsedMs: number;
  log: string[];
  torn: TornWrite | null;
}

export interface LabStatus {
  running: boolean;
  completed: number[];
  log: string[];
}

let job: BrowserJob | null = null;
let store: TearingStore | null = null;
let done: Promise<LabResult> | null = null;
let running = false;
let previewed = 0;
let feeds: LiveFeeds | null = null;
const log: string[] = [];

async function firstMessages(f: LiveFeeds): Promise<void> {
  for (const t0 = performance.now(); Object.values(f.readers).some((r) => r.received === 0); await new Promise((r) => setTimeout(r, 5))) {
    if (performance.now() - t0 > 10_000) throw new Error('a live feed sent nothing within 10 s');
  }
}

/** The job's live feeds, connected from this page with the browser's WebSocket and fetch. */
function openFeeds(doc: unknown): LiveFeeds {
  const { plan, problems } = compile(doc);
  if (!plan) throw new Error(`invalid pipeline: ${problems.map((p) => p.message).join('; ')}`);
  const f = new LiveFeeds(plan, {
    webSocket: WebSocket as unknown as WebSocketConstructor,
    fetch: (input, init) => fetch(input, init),
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), random: Math.random },
    clock: { now: () => performance.now() },
    retain: 3,
    session: `lab-${Date.now().toString(36)}`,
    endOnClose: true,
  });
  f.start();
  return f;
}

async function start(doc: unknown, opts: LabOptions = {}): Promise<void> {
  if (running) throw new Error('a job is already running in this lab page; wait() for it first');
  running = true;
  log.length = 0;
  previewed = 0;
  const { bucketQuotaBytes, liveFeeds, waitForFeeds, preview, ...jobOpts } = opts;
  let j: BrowserJob;
  try {
    feeds = liveFeeds ? openFeeds(doc) : null;
    if (feeds && waitForFeeds) await firstMessages(feeds);
    store = new TearingStore(new IndexedDbCheckpointStore({ exclusive: true, idbFactory: await factoryOf(opts.storageBucket, bucketQuotaBytes) }));
    const onPreview = preview ? (_sink: string, c: { els: readonly unknown[] }) => void (previewed += c.els.length) : undefined;
    j = job = new BrowserJob(doc, { ...jobOpts, store, log: (l) => log.push(l), feeds: feeds ?? undefined, onPreview });
  } catch (e) {
    feeds?.stop('the job did not start');
    running = false;
    throw e;
  }
  const f = feeds;
  const s = store;
  done = j.run().then(async (r) => {
    running = false;
    f?.stop('the job ended');
    const result: LabResult = {
      status: r.status,
      reason: r.reason,
      restarts: r.restarts,
      recoveries: r.recoveries.map(({ reason, recoveryMs, restoredFrom }) => ({ reason, recoveryMs, restoredFrom })),
      views: r.views,
      checkpoints: r.checkpoints.map(({ checkpointId, status, reason }) => ({ checkpointId, status, reason })),
      elapsedMs: r.elapsedMs,
      log: [...log],
      torn: s.torn,
    };
    await j.dispose();
    return result;
  });
}

function current(): BrowserJob {
  if (!job) throw new Error('no job was started in this lab page; call start() first');
  return job;
}

const lab = {
  start,
  /** The result of the job last started. */
  wait(): Promise<LabResult> {
    if (!done) throw new Error('no job was started in this lab page; call start() first');
    return done;
  },
  async run(doc: unknown, opts: LabOptions = {}): Promise<LabResult> {
    await start(doc, opts);
    return lab.wait();
  },
  status(): LabStatus {
    const completed = job ? job.checkpoints().filter((c) => c.status === 'completed').map((c) => c.checkpointId) : [];
    return { running, completed, log: [...log] };
  },
  kill: (subtask: string) => current().killSubtask(subtask),
  /** Sink changes previewed so far by the job last started with `preview: true`. */
  previewed: () => previewed,
  /** Messages each live feed of the running job has received. */
  feedsReceived: () => Object.fromEntries(Object.entries(feeds?.readers ?? {}).map(([id, r]) => [id, r.received])),
  triggerCheckpoint: () => current().triggerCheckpoint(),
  fillStorage: () => current().fillStorage(),
  failNextSnapshotWrite: (reason?: string) => current().failNextSnapshotWrite(reason),
  /** Kills `subtask` right after the first snapshot of the next checkpoint lands in IndexedDB. */
  tearNextCheckpoint(subtask: string): void {
    const j = current();
    store!.tearNext(() => j.killSubtask(subtask));
  },
  /** Committed checkpoints of a job in IndexedDB, as a fresh page (after a reload) sees them. */
  async committed(jobId: string, bucket?: string): Promise<number[]> {
    const s = await storeOf(bucket);
    try {
      return (await s.list(jobId)).map((m) => m.checkpointId);
    } finally {
      await s.close();
    }
  },
  async resumable(jobId: string, bucket?: string): Promise<number | null> {
    const s = await storeOf(bucket);
    try {
      return (await BrowserJob.resumable(jobId, s))?.checkpointId ?? null;
    } finally {
      await s.close();
    }
  },
  /** Fills the bucket to its quota (a real one, unlike fillStorage()); returns the ballast bytes. */
  fillBucket: async (bucket: string) => fillWithBallast((await factoryOf(bucket))!),
  freeBucket: async (bucket: string) => removeBallast((await factoryOf(bucket))!),
  isolated: () => crossOriginIsolated,
  /** The latency job on Web Workers beside a CPU hog of about 1.5 cores, with heartbeat jitter and a heartbeat gap that restarts it. */
  async loadTrial(o: { records: number; keys: number; checkpointIntervalMs: number; run: number }): Promise<LoadTrialResult> {
    const stop = startBrowserHog(1.5);
    try {
      return await latencyLoadTrial(browserSpawn(), o);
    } finally {
      stop();
    }
  },
};

declare global {
  interface Window {
    __weirLab: typeof lab;
  }
}

window.__weirLab = lab;
document.body.dataset.ready = 'true';
