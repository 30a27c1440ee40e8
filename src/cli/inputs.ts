import { dirname, resolve } from 'node:path';
import type { JobPlan } from '../pipeline/plan.ts';
import type { SourceEnv } from '../engine/source.ts';
import { InvalidError } from './io.ts';
import { readText } from './load.ts';

/** `--input id=-`: the source reads standard input. */
export const STDIN = '-';

export type Inputs = Record<string, NonNullable<SourceEnv['input']>>;

export interface ResolvedInput {
  nodeId: string;
  file: string;
  lines: number;
  /** Lines that are not blank. */
  records: number;
}

/** Splits a JSON Lines text; a final newline does not make an extra (empty) line. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Finds the file for every fileSource: `--input id=file` (relative to the working directory),
 * else the node's params.path (relative to the pipeline file). Every fault is reported at once.
 * An input of `-` is standard input: left to the caller when `stdin` is 'live' (listed in
 * `live`), read to its end here when it is 'read' (runtimes that must be able to replay it).
 */
export function resolveInputs(
  plan: JobPlan,
  pipelineFile: string,
  given: ReadonlyMap<string, string>,
  stdin: 'live' | 'read' = 'live',
): { inputs: Inputs; resolved: ResolvedInput[]; live: string[] } {
  const fileSources = plan.nodes.filter((n) => n.kind === 'fileSource');
  const ids = new Set(fileSources.map((n) => n.id));
  const problems: string[] = [];
  for (const id of given.keys()) {
    if (ids.has(id)) continue;
    const other = plan.nodes.find((n) => n.id === id);
    const known = fileSources.map((n) => n.id).join(', ') || '(none)';
    problems.push(`--input ${id}: ${other ? `node "${id}" is a ${other.kind}, not a fileSource` : `no node "${id}" in ${pipelineFile}`}; fileSource nodes: ${known}`);
  }
  const files: { nodeId: string; file: string }[] = [];
  for (const n of fileSources) {
    const path = (n.params as { path?: string }).path;
    const file = given.get(n.id) ?? (path ? resolve(dirname(pipelineFile), path) : undefined);
    if (file === undefined) problems.push(`fileSource "${n.id}" has no input: give --input ${n.id}=<file.jsonl> or set params.path in the pipeline`);
    else files.push({ nodeId: n.id, file });
  }
  const fromStdin = files.filter((f) => f.file === STDIN).map((f) => f.nodeId);
  if (fromStdin.length > 1) problems.push(`--input ${fromStdin.join(', ')}: only one source can read standard input (-); give the others files`);
  if (problems.length) throw new InvalidError(problems);
  const live = stdin === 'live' ? fromStdin : [];
  const inputs: Inputs = {};
  const resolved: ResolvedInput[] = [];
  const unreadable: string[] = [];
  for (const { nodeId, file } of files) {
    if (live.includes(nodeId)) continue;
    try {
      const lines = splitLines(readText(file === STDIN ? 0 : file, `the input of "${nodeId}"`));
      inputs[nodeId] = { name: file, lines };
      resolved.push({ nodeId, file: file === STDIN ? 'standard input' : file, lines: lines.length, records: lines.filter((l) => l.trim() !== '').length });
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      unreadable.push(...e.lines);
    }
  }
  if (unreadable.length) throw new InvalidError(unreadable);
  return { inputs, resolved, live };
}
