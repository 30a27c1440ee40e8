import { createHash, type Hash } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../checkpoint/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { compareStateDescriptors, stateDescriptors, type DeclaredCodeStates, type PipelineStateDescriptors } from '../pipeline/stateDescriptors.ts';
import { loadCode } from '../engine/codeHost.ts';
import type { FileCheckpointStore } from '../runtime/node/fileCheckpointStore.ts';
import type { CommittedOutput } from '../runtime/node/committedOutput.ts';
import type { JobInputs } from './inputs.ts';
import { jobInputLines } from './inputs.ts';
import type { LineSource } from '../core/lineSource.ts';
import { InvalidError, RefusedError } from './io.ts';

/** What a resume needs to check a checkpoint against: recorded with every checkpoint. */
type AnnotatedManifest = CheckpointManifest & { pipeline?: PipelineStateDescriptors };
/** The part of a source's input a checkpoint has consumed: its first `lines` lines and their SHA-256. */
interface ConsumedInput {
  file: string;
  lines: number;
  sha256: string;
}
type AnnotatedSnapshot = SubtaskSnapshot & { input?: ConsumedInput };

/**
 * The CLI's checkpoint store: the file store, with every manifest carrying the pipeline's state
 * descriptors and every source snapshot the checksum of the input prefix it consumed, so that a
 * resume can refuse a changed pipeline or a changed input instead of restoring nonsense.
 */
export class ResumableStore implements CheckpointStore {
  private readonly descriptors: PipelineStateDescriptors;
  /** Per source subtask: a running hash of its input up to `at`, so checkpoints hash only new lines. */
  private readonly running = new Map<string, { at: number; hash: Hash }>();
  /** Per source: its lines, read in blocks as the running hashes move forward. */
  private readonly lines = new Map<string, LineSource>();
  /** Operators whose state a resume leaves out (--allow-non-restored-state). */
  dropped = new Set<string>();

  constructor(
    readonly inner: FileCheckpointStore,
    plan: JobPlan,
    private readonly inputs: JobInputs,
    codeStates: DeclaredCodeStates = {},
  ) {
    this.descriptors = stateDescriptors(plan, codeStates);
  }

  private consumed(subtask: string, node: string, offset: number): ConsumedInput | undefined {
    const input = this.inputs[node];
    if (!input || offset > lineCount(input)) return undefined;
    let lines = this.lines.get(node);
    if (!lines) this.lines.set(node, (lines = jobInputLines(input)));
    let r = this.running.get(subtask);
    if (!r || r.at > offset) r = { at: 0, hash: createHash('sha256') };
    for (let i = r.at; i < offset; i++) r.hash.update(lines.line(i) + '\n');
    r.at = offset;
    this.running.set(subtask, r);
    return { file: input.name ?? node, lines: offset, sha256: r.hash.copy().digest('hex') };
  }

  writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot) {
    const node = snap.subtask.slice(0, snap.subtask.lastIndexOf('#'));
    const input = snap.source ? this.consumed(snap.subtask, node, snap.source.offset) : undefined;
    return this.inner.writeSubtask(jobId, checkpointId, input ? ({ ...snap, input } as AnnotatedSnapshot) : snap);
  }

  locate(jobId: string, checkpointId: number, ref?: string) {
    return this.inner.locate(jobId, checkpointId, ref);
  }

  commit(manifest: CheckpointManifest) {
    return this.inner.commit({ ...manifest, pipeline: this.descriptors } as AnnotatedManifest);
  }

  /** The newest checkpoint, without the state of operators a resume was allowed to leave out. */
  async latest(jobId: string) {
    const m = await this.inner.latest(jobId);
    return m && this.withoutDropped(m);
  }

  /** Every retained checkpoint, each without the left-out operators' state (a restore reads from this list). */
  async list(jobId: string) {
    return (await this.inner.list(jobId)).map((m) => this.withoutDropped(m));
  }

  private withoutDropped(m: CheckpointManifest): CheckpointManifest {
    if (!this.dropped.size) return m;
    const keep = (id: string) => !this.dropped.has(id.slice(0, id.lastIndexOf('#')));
    return { ...m, subtasks: Object.fromEntries(Object.entries(m.subtasks).filter(([id]) => keep(id))), parallelism: Object.fromEntries(Object.entries(m.parallelism).filter(([id]) => !this.dropped.has(id))) };
  }
  readSubtask(ref: string) {
    return this.inner.readSubtask(ref);
  }
  discard(jobId: string, id: number) {
    return this.inner.discard(jobId, id);
  }
  abort(jobId: string, id: number) {
    return this.inner.abort(jobId, id);
  }

  currentDescriptors(): PipelineStateDescriptors {
    return this.descriptors;
  }
}

/**
 * The state each process node's code declares, read by loading the code through the installed
 * code host (the sandbox, once the user trusted the code) the way its operator will: a resume
 * then compares state names, kinds and TTLs, not code text. Code that does not load is left out
 * (compared by its text); the run reports its error when the operator starts.
 */
export function declaredCodeStates(plan: JobPlan): DeclaredCodeStates {
  const out: DeclaredCodeStates = {};
  for (const n of plan.nodes) {
    const code = (n.params as { code?: unknown }).code;
    if (n.kind !== 'process' || typeof code !== 'string') continue;
    let shape: { state?: unknown };
    try {
      shape = (loadCode({ nodeId: n.id, what: 'process code' }, code, 'object').shape ?? {}) as { state?: unknown };
    } catch {
      continue;
    }
    const state = shape.state;
    if (state === null || state === undefined) out[n.id] = {};
    else if (typeof state === 'object' && !('invalid' in state)) {
      out[n.id] = Object.fromEntries(
        Object.entries(state as Record<string, Record<string, unknown> | null>).map(([name, d]) => [
          name,
          { kind: String(d?.kind), ...(typeof d?.ttlMs === 'number' ? { ttlMs: d.ttlMs } : {}), ...(typeof d?.ttlUpdate === 'string' ? { ttlUpdate: d.ttlUpdate } : {}), ...(typeof d?.ttlTime === 'string' ? { ttlTime: d.ttlTime } : {}) },
        ]),
      );
    }
  }
  return out;
}

export interface ResumeOptions {
  jobId: string;
  stateDir: string;
  /** The job's own folder in the state directory (checkpoints and committed output). */
  jobDir: string;
  allowNonRestoredState: boolean;
  notice: (line: string) => void;
}

/**
 * Everything `--resume` checks before a single record moves. Returns whether the job resumes
 * (false: it starts from the beginning, the state directory emptied). Never mixes: output
 * committed by an earlier run is either part of the restored history or removed.
 *
 * - the newest checkpoint whose manifest and snapshots all read back is restored; newer ones
 *   that do not are set aside, and the run says which it used and why;
 * - output epochs committed after the restored checkpoint are rolled back (they are produced
 *   again from it); a damaged epoch the checkpoint cannot rebuild is refused;
 * - every operator's state must match the pipeline (id and state descriptors), unless
 *   `--allow-non-restored-state` lets those that do not start empty;
 * - every source's input must still hold, unchanged, the lines the checkpoint consumed.
 */
export async function prepareResume(store: ResumableStore, output: CommittedOutput, inputs: JobInputs, o: ResumeOptions): Promise<boolean> {
  const { usable, skipped } = await store.inner.inspect(o.jobId, true);
  for (const s of skipped) o.notice(`--resume: checkpoint ${s.checkpointId} cannot be used: ${s.file}: ${s.reason}`);
  const scan = output.scan();
  if (!usable) {
    const epochs = scan.committed.length + scan.damaged.length + scan.uncommitted.length;
    const why = skipped.length ? 'no checkpoint can be read back' : 'no completed checkpoint exists';
    o.notice(`--resume: ${why} for "${o.jobId}" in ${o.stateDir}${epochs ? `; the ${epochs} output files committed by the earlier run are discarded (they belong to no checkpoint)` : ''}; starting from the beginning`);
    rmSync(o.jobDir, { recursive: true, force: true });
    return false;
  }
  const id = usable.checkpointId;
  o.notice(`--resume: restoring checkpoint ${id} (completed ${new Date(usable.completedAt).toISOString()})${skipped.length ? `, the newest one that reads back` : ', the latest'}`);
  await store.inner.cleanupUncommitted(o.jobId);

  checkState(store, usable as AnnotatedManifest, o);
  const snaps = await Promise.all(Object.values(usable.subtasks).map((ref) => store.readSubtask(ref) as Promise<AnnotatedSnapshot>));
  checkInputs(snaps, inputs, id);

  const later = [...scan.committed, ...scan.damaged].filter((e) => e.epoch > id);
  if (later.length) {
    o.notice(`--resume: ${later.length} output epoch file${later.length === 1 ? '' : 's'} committed after checkpoint ${id} ${later.length === 1 ? 'is' : 'are'} rolled back and produced again from checkpoint ${id}, so nothing is emitted twice`);
  }
  // A damaged epoch up to the checkpoint can be rebuilt only if the checkpoint still holds it (pre-committed, not yet published).
  const held = new Set(snaps.flatMap((s) => [...(s.pendingCommits ?? []), ...(s.deadLetterEpochs ?? [])].map((c) => `${c.origin}@${c.epoch}`)));
  const lost = scan.damaged.filter((d) => d.epoch <= id && !(d.key && held.has(d.key)));
  for (const d of scan.damaged.filter((x) => x.epoch <= id && !lost.includes(x))) {
    o.notice(`--resume: committed output ${d.file} is damaged (${d.reason}); checkpoint ${id} still holds that output, so it is written again from there`);
  }
  if (lost.length) {
    throw new RefusedError(`--resume: committed output ${lost[0].file} is damaged (${lost[0].reason}), and checkpoint ${id} no longer holds that output, so it cannot be rebuilt${lost.length > 1 ? ` (${lost.length - 1} more damaged)` : ''}. Run again without --resume to start over.`);
  }
  output.remove([...later.map((e) => e.file), ...scan.damaged.map((d) => d.file), ...scan.uncommitted]);
  return true;
}

function checkState(store: ResumableStore, m: AnnotatedManifest, o: ResumeOptions): void {
  if (!m.pipeline) return;
  const mismatches = compareStateDescriptors(m.pipeline, store.currentDescriptors());
  if (!mismatches.length) return;
  if (!o.allowNonRestoredState) {
    throw new InvalidError([
      `--resume: checkpoint ${m.checkpointId} does not fit this pipeline:`,
      ...mismatches.map((x) => `  ${x.message}`),
      `Restore it with the pipeline it was taken with, run without --resume to start over, or give --allow-non-restored-state to start ${mismatches.length === 1 ? 'that operator' : 'those operators'} with empty state.`,
    ]);
  }
  for (const x of mismatches) {
    store.dropped.add(x.nodeId);
    o.notice(`--resume: --allow-non-restored-state: ${x.message}; it starts with empty state`);
  }
}

const lineCount = (input: JobInputs[string]): number => ('path' in input ? input.lineCount : input.lines.length);

function checkInputs(snaps: readonly AnnotatedSnapshot[], inputs: JobInputs, id: number): void {
  const problems: string[] = [];
  for (const s of snaps) {
    if (!s.source || !s.input) continue;
    const node = s.subtask.slice(0, s.subtask.lastIndexOf('#'));
    const input = inputs[node];
    if (!input) continue;
    const { lines, sha256 } = s.input;
    const have = lineCount(input);
    if (have < lines) {
      problems.push(`--resume: the input of "${node}" (${input.name}) has ${have} lines, but checkpoint ${id} had already read ${lines} lines of ${s.input.file}: this is not the input the checkpoint was taken from`);
      continue;
    }
    const h = createHash('sha256');
    const read = jobInputLines(input);
    for (let i = 0; i < lines; i++) h.update(read.line(i) + '\n');
    if (h.digest('hex') !== sha256) problems.push(`--resume: the first ${lines} lines of the input of "${node}" (${input.name}) differ from the ones checkpoint ${id} consumed from ${s.input.file} (checksum differs): the input changed`);
  }
  if (problems.length) throw new InvalidError([...new Set(problems), 'Give the original input, or run without --resume to start over.']);
}
