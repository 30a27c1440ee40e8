import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PipelineDocument } from '../pipeline/document.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { FileCheckpointStore } from '../runtime/node/fileCheckpointStore.ts';
import { CommittedOutput } from '../runtime/node/committedOutput.ts';
import { nodeSpawn } from '../runtime/node/nodeSpawn.ts';
import { JobManager } from '../runtime/threaded/jobManager.ts';
import { WorkerPool } from '../runtime/threaded/workerPool.ts';
import type { JobResult } from '../runtime/threaded/jobOptions.ts';
import type { RunArgs } from './args.ts';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';
import { STDIN, resolveFileInputs } from './inputs.ts';
import { cliFeeds, feedInputs } from './feedInputs.ts';
import type { FeedSourceParams } from '../pipeline/kinds/feedSource.ts';
import type { LiveFeeds } from '../runtime/feeds/liveFeeds.ts';
import type { JobInputs } from './inputs.ts';
import { LineWriter, changelogLine, firstDeadLetter, outputFile, writeDeadLetters, writeJsonFile } from './output.ts';
import type { DeadLetter } from '../core/types.ts';
import type { ParallelRunFlags } from './runFlags.ts';
import { fileNameFor } from '../runtime/node/durableFiles.ts';
import { ResumableStore, declaredCodeStates, prepareResume } from './resume.ts';
import { lockStateDir } from './stateDirLock.ts';
import { prepareUserCode } from './codeFlags.ts';

/**
 * `weir run` with any parallel-runtime flag: the job runs on worker_threads under the job
 * manager, with aligned checkpoints (in files with --state-dir), restarts and exactly-once
 * output. Same files as the single-threaded run; see PARALLEL_RUN_USAGE for what differs.
 */
export async function runParallelCommand(args: RunArgs, flags: ParallelRunFlags, io: Io): Promise<number> {
  const plan = loadPipeline(args.pipeline, args.seed, { notice: (line) => io.err(line) });
  const stdinSource = [...args.inputs].find(([, file]) => file === STDIN)?.[0];
  if (stdinSource !== undefined && flags.resume) {
    throw new InvalidError([
      `--input ${stdinSource}=- with --resume: standard input cannot be replayed, so a checkpoint's source offset cannot be found again after the process ended; save the input to a file and give --input ${stdinSource}=<file.jsonl>`,
    ]);
  }
  if (args.out === STDIN) throw new InvalidError(['--out - streams on the plain in-process run only; give --out <dir> with the parallel-runtime flags']);
  // Live feeds connect on this thread; the workers running their sources read mirrors of their logs.
  const fed = feedInputs(plan, args.inputs);
  const fedIds = new Set(fed.feeds.map((f) => f.nodeId));
  // The parallel runtime replays inputs after a restart, so standard input is read to its end first;
  // files go to the workers by path, and each source's worker reads its file in blocks.
  const { inputs, resolved } = resolveFileInputs({ ...plan, nodes: plan.nodes.filter((n) => !fedIds.has(n.id)) }, args.pipeline, fed.rest, 'read');
  Object.assign(inputs, fed.recorded);
  for (const r of resolved) io.err(`input ${r.nodeId}: ${r.file} (${r.records} records)`);
  for (const f of fed.feeds) io.err(`input ${f.nodeId}: live feed ${f.url} (${f.transport === 'sse' ? 'Server-Sent Events' : 'WebSocket'}), until it closes or Ctrl-C; replayed from the last completed checkpoint after a restart`);
  const codeLimits = await prepareUserCode(plan.doc, args.code, io, stdinSource !== undefined);
  const doc = withParallelism(asFeeds(plan.doc, fed.params), flags.parallelism);
  const retain = plan.doc.settings?.checkpoint?.retain ?? 3;
  const feeds = fed.feeds.length ? cliFeeds(plan, fed.params, retain) : undefined;
  try {
    return await runWithFeeds(feeds, io, () => runDoc(args, flags, io, plan, doc, inputs, feeds, codeLimits));
  } finally {
    feeds?.stop('the run ended');
  }
}

/** A source given a feed URL runs as a feedSource on the workers, with the params the connection uses. */
function asFeeds(doc: PipelineDocument, params: Record<string, FeedSourceParams>): PipelineDocument {
  if (!Object.keys(params).length) return doc;
  return { ...doc, nodes: doc.nodes.map((n) => (params[n.id] ? { ...n, kind: 'feedSource', params: params[n.id] as unknown as Record<string, unknown> } : n)) };
}

/**
 * Starts the feeds around the run; the first Ctrl-C closes them so the sources end and the
 * results are written. A feed that closed for an error (unreachable, attempts used up) makes the run fail (exit 2).
 */
async function runWithFeeds(feeds: LiveFeeds | undefined, io: Io, run: () => Promise<number>): Promise<number> {
  if (!feeds) return run();
  const onSigint = () => {
    io.err('Ctrl-C: closing the live feeds; the sources end and the results are written (Ctrl-C again quits at once)');
    feeds.stop('stopped by Ctrl-C');
  };
  process.once('SIGINT', onSigint);
  feeds.start();
  let code: number;
  try {
    code = await run();
  } finally {
    process.off('SIGINT', onSigint);
    for (const [id, c] of feeds.closed()) io.err(`live feed ${id} closed: ${c.reason}`);
  }
  return [...feeds.closed().values()].some((c) => !c.clean) ? 2 : code;
}

async function runDoc(args: RunArgs, flags: ParallelRunFlags, io: Io, plan: JobPlan, doc: PipelineDocument, inputs: JobInputs, feeds: LiveFeeds | undefined, codeLimits: Awaited<ReturnType<typeof prepareUserCode>>): Promise<number> {
  // A worker waiting on its code's watchdog sends no heartbeats; the watchdog must speak first.
  const heartbeatTimeoutMs = codeLimits ? Math.max(5000, codeLimits.timeoutMs + 3000) : undefined;
  try {
    mkdirSync(args.out, { recursive: true });
  } catch (e) {
    throw new InvalidError([`--out ${args.out}: cannot create the directory: ${(e as Error).message}`]);
  }
  const jobId = plan.doc.name;
  const sinks = plan.nodes.filter((n) => n.isSink).map((n) => n.id);
  if (!flags.stateDir) return finish(args, flags, io, plan, doc, inputs, feeds, sinks, new CommittedOutput(null), undefined, false, heartbeatTimeoutMs);
  // One run per state directory: a second one would interleave its commits with ours.
  const stateDir = resolve(flags.stateDir);
  const release = lockStateDir(stateDir, (line) => io.err(line));
  try {
    const jobDir = join(stateDir, fileNameFor(jobId));
    const output = new CommittedOutput(join(jobDir, 'committed'));
    const store = new ResumableStore(new FileCheckpointStore(stateDir), plan, inputs, declaredCodeStates(plan));
    let resume = false;
    if (flags.resume) resume = await prepareResume(store, output, inputs, { jobId, stateDir: flags.stateDir, jobDir, allowNonRestoredState: flags.allowNonRestoredState ?? false, notice: (line) => io.err(line) });
    else rmSync(jobDir, { recursive: true, force: true });
    return await finish(args, flags, io, plan, doc, inputs, feeds, sinks, output, store, resume, heartbeatTimeoutMs);
  } finally {
    release();
  }
}

async function finish(args: RunArgs, flags: ParallelRunFlags, io: Io, plan: JobPlan, doc: PipelineDocument, inputs: JobInputs, feeds: LiveFeeds | undefined, sinks: string[], output: CommittedOutput, store: ResumableStore | undefined, resume: boolean, heartbeatTimeoutMs: number | undefined): Promise<number> {
  const jobId = plan.doc.name;
  const chaos = flags.chaos ?? 0;
  // With chaos, standby workers warm up during each attempt so a restart does not wait for thread start-up.
  const pool = new WorkerPool(await nodeSpawn());
  const manager = new JobManager(doc, {
    spawn: pool.take,
    prewarm: chaos > 0 ? (n) => pool.prewarm(n) : undefined,
    jobId,
    store,
    inputs,
    feeds,
    resume,
    state: flags.state ?? plan.doc.settings?.stateBackend ?? 'memory',
    // settings.checkpoint.intervalMs null means manual checkpoints only: then just the final one.
    checkpointIntervalMs: flags.checkpointIntervalMs ?? (plan.doc.settings?.checkpoint?.intervalMs === undefined ? 1000 : plan.doc.settings.checkpoint.intervalMs),
    checkpointEveryRecords: flags.checkpointEveryRecords,
    retain: plan.doc.settings?.checkpoint?.retain ?? 3,
    checkpointTimeoutMs: plan.doc.settings?.checkpoint?.timeoutMs,
    incremental: plan.doc.settings?.checkpoint?.incremental,
    chaos: chaos > 0 ? { kills: chaos, seed: args.seed ?? 1 } : undefined,
    restart: chaos > 0 ? { type: 'fixedDelay', delayMs: 20, maxAttempts: chaos + 5 } : undefined,
    published: resume ? output.publishedKeys(sinks) : [],
    keepChangelog: false,
    onPublish: (sinkId, c) => output.publish(sinkId, c, changelogLine),
    onDeadLetters: (e) => output.deadLetters(e),
    log: (line) => io.err(line),
    heartbeatTimeoutMs,
  });
  const result = await manager.run().finally(() => pool.close());
  if (result.status === 'failed') throw new Error(result.reason ?? 'the job failed');
  const changelogRows: Record<string, number> = {};
  for (const id of sinks) {
    const w = new LineWriter(outputFile(args.out, id, 'changelog.jsonl'));
    try {
      for (const line of output.changelogLines(id)) w.write(line);
    } finally {
      w.close();
    }
    changelogRows[id] = w.lines;
    writeJsonFile(outputFile(args.out, id, 'view.json'), result.views[id] ?? []);
  }
  const dead = output.allDeadLetters();
  const paths = new Map(plan.nodes.map((n) => [n.id, outputFile(args.out, n.id, 'dead-letter.jsonl')]));
  for (const d of dead) if (!paths.has(d.nodeId)) paths.set(d.nodeId, outputFile(args.out, d.nodeId, 'dead-letter.jsonl'));
  const deadCounts = writeDeadLetters(paths, dead);
  io.err(summary(plan.doc.name, result, changelogRows, deadCounts, args.out, dead));
  return 0;
}

/** `--parallelism N`: every operator without its own parallelism gets N; sources keep one reader each. */
function withParallelism(doc: PipelineDocument, n: number | undefined): PipelineDocument {
  if (n === undefined) return doc;
  return { ...doc, nodes: doc.nodes.map((node) => (node.parallelism !== undefined || node.kind.endsWith('Source') ? node : { ...node, parallelism: n })) };
}

function summary(name: string, r: JobResult, changelogRows: Record<string, number>, dead: Map<string, number>, out: string, letters: readonly DeadLetter[]): string {
  const completed = r.checkpoints.filter((c) => c.status === 'completed').length;
  const lines = [`ran "${name}" in ${(r.elapsedMs / 1000).toFixed(2)} s on ${r.workers} worker thread${r.workers === 1 ? '' : 's'}`];
  lines.push(`  checkpoints: ${completed} completed, ${r.checkpoints.length - completed} aborted`);
  if (r.restarts) {
    const ms = r.recoveries.map((x) => x.recoveryMs);
    lines.push(`  restarts: ${r.restarts} (recovery ${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} ms each)`);
  }
  for (const [id, m] of Object.entries(r.stats?.nodes ?? {})) lines.push(`  ${id}: ${m.recordsIn} in, ${m.recordsOut} out (${m.subtasks} subtask${m.subtasks === 1 ? '' : 's'})`);
  for (const [id, n] of Object.entries(changelogRows)) lines.push(`  sink ${id}: ${r.views[id]?.length ?? 0} rows in the view, ${n} changelog rows`);
  const total = [...dead.values()].reduce((a, b) => a + b, 0);
  lines.push(`  dead letters: ${total}${dead.size ? ` (${[...dead].map(([id, c]) => `${id}: ${c}`).join(', ')}; see <node>.dead-letter.jsonl)` : ''}`);
  for (const id of dead.keys()) {
    const first = firstDeadLetter(letters, id);
    if (first) lines.push(`    ${id} ${first}`);
  }
  lines.push(`results in ${out}`);
  return lines.join('\n');
}
