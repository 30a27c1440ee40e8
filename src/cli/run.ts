import { performance } from 'node:perf_hooks';
import type { LocalCluster } from '../runtime/localCluster.ts';
import { inProcessCluster } from '../runtime/runInProcess.ts';
import { describeChains } from '../runtime/chaining.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { RunArgs } from './args.ts';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';
import type { RunInputs } from './inputs.ts';
import { STDIN, resolveStreamedInputs } from './inputs.ts';
import type { RunOutput } from './runOutput.ts';
import { DirOutput, StdoutOutput } from './runOutput.ts';
import { executeLive } from './runLive.ts';
import { firstDeadLetter } from './output.ts';
import type { DeadLetter } from '../core/types.ts';
import { prepareUserCode } from './codeFlags.ts';
import { cliFeeds, feedInputs } from './feedInputs.ts';
import type { LiveFeeds } from '../runtime/feeds/liveFeeds.ts';

export interface RunSummary {
  elapsedMs: number;
  sources: { id: string; kind: string; records: number; deadLetters: number; firstDeadLetter?: { line?: number; reason: string } }[];
  sinks: { id: string; viewRows: number; changelogRows: number }[];
  /** `first`: a later node's first dead letter at its record's source line (see firstDeadLetter). */
  deadLetters: { id: string; count: number; first?: string }[];
  totalDeadLetters: number;
  /** Which GROUP BY → view pairs ran chained, and why the others did not (see runtime/chaining.ts). */
  chains: string[];
}

/**
 * `weir run`: everything that can be checked is checked before the first record moves
 * (exit 1); what fails after that is a runtime failure (the caller maps it to exit 2).
 * With an `--input id=-` the job runs live on standard input; otherwise to the end of its files.
 */
export async function runCommand(args: RunArgs, io: Io): Promise<number> {
  const plan = loadPipeline(args.pipeline, args.seed, { notice: (line) => io.err(line) });
  const fed = feedInputs(plan, args.inputs);
  // Sources fed by a live feed need no file.
  const fedIds = new Set(fed.feeds.map((f) => f.nodeId));
  const { inputs, resolved, live } = resolveStreamedInputs({ ...plan, nodes: plan.nodes.filter((n) => !fedIds.has(n.id)) }, args.pipeline, fed.rest);
  Object.assign(inputs, fed.recorded);
  for (const r of resolved) {
    if (r.records === 0) io.err(`input ${r.nodeId}: ${r.file} is empty${r.lines ? ' (only blank lines)' : ''}: this source will produce no records`);
    else io.err(`input ${r.nodeId}: ${r.file} (${plural(r.lines, 'line')})`);
  }
  for (const id of live) io.err(`input ${id}: standard input (streaming)`);
  for (const f of fed.feeds) io.err(`input ${f.nodeId}: live feed ${f.url} (${f.transport === 'sse' ? 'Server-Sent Events' : 'WebSocket'}), until it closes or Ctrl-C`);
  await prepareUserCode(plan.doc, args.code, io, live.length > 0);
  const sinkIds = plan.nodes.filter((n) => n.isSink).map((n) => n.id);
  let output: RunOutput;
  if (args.out === STDIN) {
    if (!io.stdout) throw new InvalidError(['--out -: this caller gives no standard output to stream to']);
    output = new StdoutOutput(io.stdout, sinkIds);
  } else output = new DirOutput(args.out, sinkIds);
  let summary: RunSummary;
  let feeds: LiveFeeds | undefined;
  if (live.length || fed.feeds.length) {
    if (live.length && !io.stdin) {
      output.close();
      throw new InvalidError([`--input ${live[0]}=-: this caller gives no standard input to read`]);
    }
    feeds = fed.feeds.length ? cliFeeds(plan, fed.params) : undefined;
    summary = await runLive(plan, inputs, live.length ? { sourceId: live[0], stream: io.stdin! } : undefined, feeds, output, io);
  } else summary = execute(plan, inputs, output);
  printSummary(plan, summary, output, io, new Map(resolved.map((r) => [r.nodeId, r.file])));
  // A feed that closed for an error (unreachable, a 404, attempts used up) is a failure of the run.
  const failed = [...(feeds?.closed() ?? [])].filter(([, c]) => !c.clean);
  return failed.length ? 2 : 0;
}

/**
 * A live run; with feeds, the first Ctrl-C closes them so the sources end and the results are
 * written, a second one quits at once (Node's default). Says how each feed closed.
 */
async function runLive(plan: JobPlan, inputs: RunInputs, stdin: { sourceId: string; stream: NodeJS.ReadableStream } | undefined, feeds: LiveFeeds | undefined, output: RunOutput, io: Io): Promise<RunSummary> {
  const onSigint = () => {
    io.err('Ctrl-C: closing the live feeds; the sources end and the results are written (Ctrl-C again quits at once)');
    feeds?.stop('stopped by Ctrl-C');
  };
  if (feeds) process.once('SIGINT', onSigint);
  try {
    return await executeLive(plan, inputs, { stdin, feeds }, output);
  } finally {
    process.off('SIGINT', onSigint);
    for (const [id, c] of feeds?.closed() ?? []) io.err(`live feed ${id} closed: ${c.reason}`);
  }
}

/** Runs the job in process to the end of its (finite) inputs, streaming sink changelogs to the output. */
export function execute(plan: JobPlan, inputs: RunInputs, output: RunOutput): RunSummary {
  const started = performance.now();
  let cluster: LocalCluster;
  try {
    cluster = inProcessCluster(plan, cliRunOptions(inputs, output));
    cluster.runSync();
  } catch (e) {
    output.close();
    throw e;
  }
  return summarize(plan, cluster, output, started);
}

/** What a plain run (to the end of files, or live) streams to the output as it happens. */
export function cliRunOptions(inputs: RunInputs, output: RunOutput): Parameters<typeof inProcessCluster>[1] {
  return {
    keepChangelog: false,
    inputs,
    onPublish: (id, els) => output.changelog(id, els),
    onDeadLetter: output.streamsDeadLetters ? (d) => output.deadLetter(d) : undefined,
  };
}

export function summarize(plan: JobPlan, cluster: LocalCluster, output: RunOutput, started: number): RunSummary {
  const { views, deadLetters } = cluster.result();
  const counts = output.finish(plan, { view: (id) => views[id] ?? [], deadLetters: () => deadLetters });
  const metrics = cluster.metrics();
  return {
    elapsedMs: performance.now() - started,
    sources: plan.nodes.filter((n) => n.isSource).map((n) => {
      const first = deadLetters.find((d) => d.nodeId === n.id);
      return { id: n.id, kind: n.kind, records: metrics[n.id].recordsOut, deadLetters: metrics[n.id].deadLetters, ...(first ? { firstDeadLetter: { line: first.line, reason: first.reason } } : {}) };
    }),
    sinks: [...counts.changelogRows].map(([id, rows]) => ({ id, viewRows: (views[id] ?? []).length, changelogRows: rows })),
    deadLetters: [...counts.deadLetters].map(([id, count]) => ({ id, count, ...withFirst(deadLetters, id) })),
    totalDeadLetters: deadLetters.length,
    chains: describeChains(cluster.chains()),
  };
}

function printSummary(plan: JobPlan, s: RunSummary, output: RunOutput, io: Io, files: ReadonlyMap<string, string>): void {
  const lines = [`ran "${plan.doc.name}" in ${(s.elapsedMs / 1000).toFixed(2)} s`];
  for (const src of s.sources) {
    lines.push(`  source ${src.id} (${src.kind}): ${plural(src.records, 'record')} read, ${src.deadLetters} dead-lettered`);
    // The first bad line as file:line, the form editors and terminals jump to.
    const d = src.firstDeadLetter;
    if (d) lines.push(`    first: ${files.get(src.id) ?? src.id}${d.line !== undefined ? `:${d.line}` : ''}: ${d.reason}`);
  }
  for (const k of s.sinks) lines.push(`  sink ${k.id}: ${plural(k.viewRows, 'row')} in the view, ${plural(k.changelogRows, 'changelog row')}`);
  const where = s.deadLetters.map((d) => `${d.id}: ${d.count}`).join(', ');
  const see = output.streamsDeadLetters ? 'the "deadLetter" lines on standard output' : '<node>.dead-letter.jsonl';
  lines.push(`  dead letters: ${s.totalDeadLetters}${where ? ` (${where}; see ${see})` : ''}`);
  for (const d of s.deadLetters) if (d.first) lines.push(`    ${d.id} ${d.first}`);
  for (const c of s.chains) lines.push(`  ${c}`);
  lines.push(`results in ${output.where}`);
  io.err(lines.join('\n'));
}

const withFirst = (dead: readonly DeadLetter[], id: string): { first?: string } => {
  const first = firstDeadLetter(dead, id);
  return first ? { first } : {};
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
