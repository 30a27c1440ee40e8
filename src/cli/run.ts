import { performance } from 'node:perf_hooks';
import type { LocalCluster } from '../runtime/localCluster.ts';
import { inProcessCluster } from '../runtime/runInProcess.ts';
import { describeChains } from '../runtime/chaining.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { RunArgs } from './args.ts';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';
import type { Inputs } from './inputs.ts';
import { STDIN, resolveInputs } from './inputs.ts';
import type { RunOutput } from './runOutput.ts';
import { DirOutput, StdoutOutput } from './runOutput.ts';
import { executeLive } from './runLive.ts';
import { prepareUserCode } from './codeFlags.ts';

export interface RunSummary {
  elapsedMs: number;
  sources: { id: string; kind: string; records: number; deadLetters: number }[];
  sinks: { id: string; viewRows: number; changelogRows: number }[];
  deadLetters: { id: string; count: number }[];
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
  const { inputs, resolved, live } = resolveInputs(plan, args.pipeline, args.inputs);
  for (const r of resolved) {
    if (r.records === 0) io.err(`input ${r.nodeId}: ${r.file} is empty${r.lines ? ' (only blank lines)' : ''}: this source will produce no records`);
    else io.err(`input ${r.nodeId}: ${r.file} (${plural(r.lines, 'line')})`);
  }
  for (const id of live) io.err(`input ${id}: standard input (streaming)`);
  await prepareUserCode(plan.doc, args.code, io, live.length > 0);
  const sinkIds = plan.nodes.filter((n) => n.isSink).map((n) => n.id);
  let output: RunOutput;
  if (args.out === STDIN) {
    if (!io.stdout) throw new InvalidError(['--out -: this caller gives no standard output to stream to']);
    output = new StdoutOutput(io.stdout, sinkIds);
  } else output = new DirOutput(args.out, sinkIds);
  let summary: RunSummary;
  if (live.length) {
    if (!io.stdin) {
      output.close();
      throw new InvalidError([`--input ${live[0]}=-: this caller gives no standard input to read`]);
    }
    summary = await executeLive(plan, inputs, live[0], io.stdin, output);
  } else summary = execute(plan, inputs, output);
  printSummary(plan, summary, output, io);
  return 0;
}

/** Runs the job in process to the end of its (finite) inputs, streaming sink changelogs to the output. */
export function execute(plan: JobPlan, inputs: Inputs, output: RunOutput): RunSummary {
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
export function cliRunOptions(inputs: Inputs, output: RunOutput): Parameters<typeof inProcessCluster>[1] {
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
    sources: plan.nodes.filter((n) => n.isSource).map((n) => ({ id: n.id, kind: n.kind, records: metrics[n.id].recordsOut, deadLetters: metrics[n.id].deadLetters })),
    sinks: [...counts.changelogRows].map(([id, rows]) => ({ id, viewRows: (views[id] ?? []).length, changelogRows: rows })),
    deadLetters: [...counts.deadLetters].map(([id, count]) => ({ id, count })),
    totalDeadLetters: deadLetters.length,
    chains: describeChains(cluster.chains()),
  };
}

function printSummary(plan: JobPlan, s: RunSummary, output: RunOutput, io: Io): void {
  const lines = [`ran "${plan.doc.name}" in ${(s.elapsedMs / 1000).toFixed(2)} s`];
  for (const src of s.sources) lines.push(`  source ${src.id} (${src.kind}): ${plural(src.records, 'record')} read, ${src.deadLetters} dead-lettered`);
  for (const k of s.sinks) lines.push(`  sink ${k.id}: ${plural(k.viewRows, 'row')} in the view, ${plural(k.changelogRows, 'changelog row')}`);
  const where = s.deadLetters.map((d) => `${d.id}: ${d.count}`).join(', ');
  const see = output.streamsDeadLetters ? 'the "deadLetter" lines on standard output' : '<node>.dead-letter.jsonl';
  lines.push(`  dead letters: ${s.totalDeadLetters}${where ? ` (${where}; see ${see})` : ''}`);
  for (const c of s.chains) lines.push(`  ${c}`);
  lines.push(`results in ${output.where}`);
  io.err(lines.join('\n'));
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
