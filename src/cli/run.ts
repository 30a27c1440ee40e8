import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Executor } from '../engine/executor.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { RunArgs } from './args.ts';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';
import type { Inputs } from './inputs.ts';
import { resolveInputs } from './inputs.ts';
import { LineWriter, changelogLine, writeDeadLetters, writeJsonFile } from './output.ts';

export interface RunSummary {
  elapsedMs: number;
  sources: { id: string; kind: string; records: number; deadLetters: number }[];
  sinks: { id: string; viewRows: number; changelogRows: number }[];
  deadLetters: { id: string; count: number }[];
  totalDeadLetters: number;
}

/**
 * `weir run`: everything that can be checked is checked before the first record moves
 * (exit 1); what fails after that is a runtime failure (the caller maps it to exit 2).
 */
export function runCommand(args: RunArgs, io: Io): number {
  const plan = loadPipeline(args.pipeline, args.seed);
  const { inputs, resolved } = resolveInputs(plan, args.pipeline, args.inputs);
  for (const r of resolved) {
    if (r.records === 0) io.err(`input ${r.nodeId}: ${r.file} is empty${r.lines ? ' (only blank lines)' : ''}: this source will produce no records`);
    else io.err(`input ${r.nodeId}: ${r.file} (${plural(r.lines, 'line')})`);
  }
  try {
    mkdirSync(args.out, { recursive: true });
  } catch (e) {
    throw new InvalidError([`--out ${args.out}: cannot create the output directory: ${(e as Error).message}`]);
  }
  const summary = execute(plan, inputs, args.out);
  printSummary(plan, summary, args.out, io);
  return 0;
}

/** Runs the job to the end, streaming sink changelogs to disk, then writes views and dead letters. */
export function execute(plan: JobPlan, inputs: Inputs, out: string): RunSummary {
  const started = performance.now();
  const sinks = plan.nodes.filter((n) => n.isSink);
  const sources = plan.nodes.filter((n) => n.isSource).map((n) => ({ id: n.id, kind: n.kind, records: 0, deadLetters: 0 }));
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const writers = new Map<string, LineWriter>();
  let executor: Executor;
  try {
    for (const n of sinks) writers.set(n.id, new LineWriter(join(out, `${n.id}.changelog.jsonl`)));
    executor = new Executor(plan, {
      keepChangelog: false,
      inputs,
      onSinkOutput(id, els) {
        const w = writers.get(id)!;
        for (const el of els) w.write(changelogLine(el));
      },
    });
    executor.onTrace((e) => {
      if (e.type !== 'source') return;
      const s = sourceById.get(e.node)!;
      s.records += e.records;
      s.deadLetters += e.deadLetters;
    });
    executor.run();
  } finally {
    for (const w of writers.values()) w.close();
  }
  for (const n of sinks) writeJsonFile(join(out, `${n.id}.view.json`), executor.view(n.id));
  const dead = executor.deadLetters();
  const paths = new Map(plan.nodes.map((n) => [n.id, join(out, `${n.id}.dead-letter.jsonl`)]));
  for (const d of dead) if (!paths.has(d.nodeId)) paths.set(d.nodeId, join(out, `${d.nodeId}.dead-letter.jsonl`));
  const deadCounts = writeDeadLetters(paths, dead);
  return {
    elapsedMs: performance.now() - started,
    sources,
    sinks: sinks.map((n) => ({ id: n.id, viewRows: executor.view(n.id).length, changelogRows: writers.get(n.id)!.lines })),
    deadLetters: [...deadCounts].map(([id, count]) => ({ id, count })),
    totalDeadLetters: dead.length,
  };
}

function printSummary(plan: JobPlan, s: RunSummary, out: string, io: Io): void {
  const lines = [`ran "${plan.doc.name}" in ${(s.elapsedMs / 1000).toFixed(2)} s`];
  for (const src of s.sources) lines.push(`  source ${src.id} (${src.kind}): ${plural(src.records, 'record')} read, ${src.deadLetters} dead-lettered`);
  for (const k of s.sinks) lines.push(`  sink ${k.id}: ${plural(k.viewRows, 'row')} in the view, ${plural(k.changelogRows, 'changelog row')}`);
  const where = s.deadLetters.map((d) => `${d.id}: ${d.count}`).join(', ');
  lines.push(`  dead letters: ${s.totalDeadLetters}${where ? ` (${where}; see <node>.dead-letter.jsonl)` : ''}`);
  lines.push(`results in ${out}`);
  io.err(lines.join('\n'));
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
