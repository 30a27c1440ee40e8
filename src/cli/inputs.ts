import { realpathSync, statSync } from 'node:fs';
import { dirname, relative, resolve, isAbsolute } from 'node:path';
import type { JobPlan } from '../pipeline/plan.ts';
import type { LinesInput } from '../core/source.ts';
import { StreamedLines, arrayLines, type ByteInput, type ByteSource, type FileInput, type LineSource } from '../core/lineSource.ts';
import { fileBytes, openFileInput } from '../runtime/node/fileBytes.ts';
import { InvalidError } from './io.ts';
import { readText } from './load.ts';

/** `--input id=-`: the source reads standard input. */
export const STDIN = '-';

/** A parallel run's inputs: files by path (each source's thread reads its own), standard input and recorded feeds as lines. */
export type JobInputs = Record<string, LinesInput | FileInput>;
/** A plain run's inputs: files read in blocks, recorded feeds and the like in memory. */
export type RunInputs = Record<string, LinesInput | ByteInput>;

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
  const target = real(file);
  const rel = relative(folder, target);
  if (!rel.startsWith('..') && !isAbsolute(rel)) return null;
  const where = target === resolve(file) ? file : `${file} is a symbolic link to ${target}, which`;
  return `${where} is outside the pipeline's folder ${folder}, and a pipeline may only read files in its own folder`;
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

/** Where each fileSource reads from, after every fault was reported at once. */
function locateInputs(plan: JobPlan, pipelineFile: string, given: ReadonlyMap<string, string>): { nodeId: string; file: string }[] {
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
      // A device or a directory is refused however it is named; only a regular file outside the folder gets the --input hint.
      const irregular = file !== STDIN && notRegular(file);
      const outside = !irregular && !given.has(n.id) && outsideFolder(file, pipelineFile);
      const bad = irregular || outside;
      if (bad) problems.push(`fileSource "${n.id}" ${given.has(n.id) ? `--input ${file}` : `params.path "${path}"`}: ${bad}${outside ? `; to read it anyway, name it on the command line: --input ${n.id}=${file}` : ''}`);
      else files.push({ nodeId: n.id, file });
    }
  }
  const fromStdin = files.filter((f) => f.file === STDIN).map((f) => f.nodeId);
  if (fromStdin.length > 1) problems.push(`--input ${fromStdin.join(', ')}: only one source can read standard input (-); give the others files`);
  if (problems.length) throw new InvalidError(problems);
  return files;
}

/**
 * Finds the file for every fileSource: `--input id=file` (relative to the working directory),
 * else the node's params.path (relative to the pipeline file). Every fault is reported at once.
 * Files are never read whole: each is counted once here, in blocks of about 1 MB through the line
 * reader the sources use (which also finds an unreadable file before the run starts), and given
 * as a FileInput that the reading thread opens itself. An input of `-` is standard input: left to
 * the caller when `stdin` is 'live' (listed in `live`), read to its end here when it is 'read'
 * (the parallel runtime must be able to replay it after a restart).
 */
export function resolveFileInputs(
  plan: JobPlan,
  pipelineFile: string,
  given: ReadonlyMap<string, string>,
  stdin: 'live' | 'read',
): { inputs: JobInputs; resolved: ResolvedInput[]; live: string[] } {
  const files = locateInputs(plan, pipelineFile, given);
  const live = stdin === 'live' ? files.filter((f) => f.file === STDIN).map((f) => f.nodeId) : [];
  const inputs: JobInputs = {};
  const resolved: ResolvedInput[] = [];
  const unreadable: string[] = [];
  for (const { nodeId, file } of files) {
    if (live.includes(nodeId)) continue;
    const what = `the input of "${nodeId}"`;
    try {
      if (file === STDIN) {
        const lines = splitLines(readText(0, what));
        inputs[nodeId] = { name: file, lines };
        resolved.push({ nodeId, file: 'standard input', lines: lines.length, records: lines.filter((l) => l.trim() !== '').length });
        continue;
      }
      const bytes = openBytes(file, what);
      // One pass to count (and to find an unreadable file before the run starts); the run reads it again.
      const lines = new StreamedLines(bytes);
      let n = 0;
      let records = 0;
      for (let l = lines.line(0); l !== undefined; l = lines.line(++n)) if (l.trim() !== '') records++;
      inputs[nodeId] = { name: file, path: file, size: bytes.size, lineCount: n };
      resolved.push({ nodeId, file, lines: n, records });
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      unreadable.push(...e.lines);
    }
  }
  if (unreadable.length) throw new InvalidError(unreadable);
  return { inputs, resolved, live };
}

/**
 * For the plain in-process run: `resolveFileInputs` with each file opened on this thread, so a
 * file larger than memory runs and only the lines near the reader are held. Standard input is
 * always live here.
 */
export function resolveStreamedInputs(plan: JobPlan, pipelineFile: string, given: ReadonlyMap<string, string>): { inputs: RunInputs; resolved: ResolvedInput[]; live: string[] } {
  const { inputs, resolved, live } = resolveFileInputs(plan, pipelineFile, given, 'live');
  return { inputs: Object.fromEntries(Object.entries(inputs).map(([id, input]) => [id, 'path' in input ? openFileInput(input) : input])), resolved, live };
}

/** The lines of a job input, read in blocks for a file (on whichever thread asks). */
export function jobInputLines(input: LinesInput | FileInput): LineSource {
  return 'path' in input ? new StreamedLines(openFileInput(input).bytes) : arrayLines(input.lines);
}

/** A regular file's bytes; a file that cannot be opened is reported before the run starts. */
function openBytes(file: string, what: string): ByteSource {
  try {
    return fileBytes(file);
  } catch (e) {
    throw new InvalidError([`${file}: cannot read ${what}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`]);
  }
}
