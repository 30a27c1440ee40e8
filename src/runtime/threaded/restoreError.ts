import type { CheckpointManifest, CheckpointStore } from '../../checkpoint/types.ts';

const PREFIX = 'the snapshot of subtask ';

/**
 * A subtask's snapshot that does not restore in its worker (a damaged or hand-edited checkpoint,
 * a snapshot of another version). Says which subtask; the job manager adds which checkpoint, which
 * file and what to do (see restoreFailure), since only it knows the store.
 */
export class RestoreError extends Error {
  constructor(subtask: string, cause: unknown) {
    super(`${PREFIX}"${subtask}" does not restore: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * The message for a deploy that failed while restoring `manifest`: the checkpoint, the operator and
 * subtask, the snapshot's file (when the store has files), and the way out: an earlier checkpoint.
 */
export function restoreFailure(reason: string, manifest: CheckpointManifest, retained: readonly CheckpointManifest[], store: CheckpointStore): string {
  const m = new RegExp(`${PREFIX}"([^"]+)" does not restore: ([\\s\\S]*)$`).exec(reason);
  if (!m) return reason;
  const [, subtask, cause] = m;
  const hash = subtask.lastIndexOf('#');
  const node = hash > 0 ? subtask.slice(0, hash) : subtask;
  // A subtask restores from every old snapshot of its node (key groups may move), so any of them may be the damaged one.
  const refs = Object.entries(manifest.subtasks).filter(([id]) => id.slice(0, id.lastIndexOf('#')) === node);
  const place = store.locate?.(manifest.jobId, manifest.checkpointId);
  const files = refs.map(([, ref]) => store.locate?.(manifest.jobId, manifest.checkpointId, ref)?.snapshot).filter((f): f is string => !!f);
  const operator = hash > 0 ? `operator "${node}" (subtask ${subtask.slice(hash + 1)})` : `subtask "${subtask}"`;
  const file = files.length === 1 ? `, file ${files[0]}` : files.length ? `, from the files ${files.join(', ')}` : '';
  const earlier = retained.filter((c) => c.checkpointId < manifest.checkpointId).at(-1);
  const way = !place
    ? earlier
      ? `restore the earlier checkpoint ${earlier.checkpointId} instead, or start over`
      : 'no earlier checkpoint is retained: start over'
    : earlier
      ? `to resume from the earlier checkpoint ${earlier.checkpointId}, move ${place.manifest} out of the way and run with --resume again (the resume falls back and says so); or start over without --resume`
      : `no earlier checkpoint is retained: start over without --resume (after moving ${place.manifest} out of the way)`;
  return `checkpoint ${manifest.checkpointId} cannot be restored: ${operator}${file}: ${cause}. The checkpoint is damaged or was written by another version; ${way}`;
}
