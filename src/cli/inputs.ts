import { realpathSync, statSync } from 'node:fs';
import { dirname, relative, resolve, isAbsolute } from 'node:path';
import type { JobPlan } from '../pipeline/plan.ts';
import type { LinesInput } from '../core/source.ts';
import { InvalidError } from './io.ts';
import { readText } from './load.ts';

/** `--input id=-`: the source reads standard input. */
export const STDIN = '-';

export type Inputs = Record<string, LinesInput>;

export interface ResolvedInput {
  nodeId: string;
  file: string;
  lines: number;
  /** Lines that are not blank. */
  records: number;
}

/**
 * Splits a JSON Lines text at LF, CRLF or a lone CR (old Mac files: without it the whole file
 * would be one bad line); a final line break does not make an extra (empty) line.
 */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A pipeline document may come from anyone, so its params.path may only name files in the
 * pipeline's own folder (after symbolic links); the user widens that by naming a file with --input.
 */
function outsideFolder(file: string, pipelineFile: string): string | null {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const folder = real(dirname(resolve(pipelineFile)));
  const rel = relative(folder, real(file));
  return rel.startsWith('..') || isAbsolute(rel) ? `${file} is outside the pipeline's folder ${folder}, and a pipeline may only read files in its own folder` : null;
}

/** Devices, FIFOs and directories are refused: /dev/zero would never end, a FIFO could block for ever. */
function notRegular(file: string): string | null {
  let st;
  try {
    st = statSync(file);
  } catch {
    return null; // reading reports the missing file with its reason
  }
  if (st.isFile()) return null;
  const what = st.isDirectory() ? 'a directory' : st.isCharacterDevice() ? 'a character device' : st.isBlockDevice() ? 'a block device' : st.isFIFO() ? 'a named pipe (FIFO)' : st.isSocket() ? 'a socket' : 'not a regular file';
  return `${file} is ${what}, not a regular file of JSON lines${st.isFIFO() ? ' (to stream, pipe it to standard input with --input <id>=-)' : ''}`;
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
    else {
      const bad = (!given.has(n.id) && outsideFolder(file, pipelineFile)) || (file !== STDIN && notRegular(file));
      if (bad) problems.push(`fileSource "${n.id}" ${given.has(n.id) ? `--input ${file}` : `params.path "${path}"`}: ${bad}${given.has(n.id) ? '' : `; to read it anyway, name it on the command line: --input ${n.id}=${file}`}`);
      else files.push({ nodeId: n.id, file });
    }
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
