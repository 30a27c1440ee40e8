import type { KeyedStateSnapshot } from '../state/backend.ts';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from './types.ts';
import type { KeyedStateHandle } from '../state/snapshotHandles.ts';
import { decodeFromJson, encodeForJson } from './savepointCodec.ts';

export const SAVEPOINT_FORMAT = 'weir/savepoint';
/** 2: state values in the tagged encoding of savepointCodec.ts (Map, Set, NaN, … survive). */
export const SAVEPOINT_VERSION = 2;

/**
 * Reads a durable backend's chunk handle into inline keyed state. The IndexedDB backend's
 * chunks live in its own database, so whoever owns that database supplies this.
 */
export type KeyedHandleReader = (handle: Extract<KeyedStateHandle, { type: 'chunks' }>, subtask: string) => Promise<KeyedStateSnapshot>;

/** A self-contained savepoint: the manifest and every subtask snapshot with keyed state inline. */
export interface SavepointDocument {
  format: typeof SAVEPOINT_FORMAT;
  version: typeof SAVEPOINT_VERSION;
  jobId: string;
  checkpointId: number;
  pipelineHash?: string;
  manifest: CheckpointManifest;
  subtasks: SubtaskSnapshot[];
}

/** Keyed state of a subtask as inline cells, reading chunks through `readChunks` when needed. */
export async function inlineKeyed(snap: SubtaskSnapshot, readChunks?: KeyedHandleReader): Promise<KeyedStateSnapshot> {
  if (snap.keyed.type === 'inline') return snap.keyed.snapshot;
  if (!readChunks) {
    throw new Error(`${snap.subtask}: keyed state is in "${snap.keyed.store}" chunks written by a durable backend; pass a chunk reader for that backend (the IndexedDB backend's database) to read it`);
  }
  return readChunks(snap.keyed, snap.subtask);
}

/** Exports a retained checkpoint as a versioned JSON document (UTF-8 bytes). */
export async function exportSavepoint(store: CheckpointStore, jobId: string, checkpointId: number, opts: { readChunks?: KeyedHandleReader; pipelineHash?: string } = {}): Promise<Uint8Array> {
  const manifest = (await store.list(jobId)).find((m) => m.checkpointId === checkpointId);
  if (!manifest) throw new Error(`savepoint: checkpoint ${checkpointId} of job "${jobId}" is not retained; pick one from the checkpoint history`);
  const subtasks: SubtaskSnapshot[] = [];
  for (const ref of Object.values(manifest.subtasks)) {
    const snap = await store.readSubtask(ref);
    subtasks.push({ ...snap, keyed: { type: 'inline', snapshot: await inlineKeyed(snap, opts.readChunks) } });
  }
  const doc: SavepointDocument = { format: SAVEPOINT_FORMAT, version: SAVEPOINT_VERSION, jobId, checkpointId, ...(opts.pipelineHash ? { pipelineHash: opts.pipelineHash } : {}), manifest, subtasks };
  return new TextEncoder().encode(JSON.stringify(encodeForJson(doc)));
}

/**
 * Validates a savepoint and commits it into `store` as a checkpoint of `jobId`, with an id after
 * every checkpoint already there, so LocalCluster restores it as the latest. Returns that id.
 */
export async function importSavepoint(bytes: Uint8Array, store: CheckpointStore, jobId: string, opts: { pipelineHash?: string } = {}): Promise<number> {
  const doc = parseSavepoint(bytes);
  if (opts.pipelineHash && doc.pipelineHash && opts.pipelineHash !== doc.pipelineHash) {
    throw new Error(`savepoint: it was taken from a different pipeline (hash ${doc.pipelineHash}, this one is ${opts.pipelineHash}); import it into the pipeline it came from`);
  }
  const existing = await store.list(jobId);
  const checkpointId = Math.max(doc.checkpointId, ...existing.map((m) => m.checkpointId + 1));
  const refs: Record<string, string> = {};
  for (const snap of doc.subtasks) refs[snap.subtask] = (await store.writeSubtask(jobId, checkpointId, snap)).ref;
  await store.commit({ ...doc.manifest, jobId, checkpointId, subtasks: refs });
  return checkpointId;
}

/** Parses and checks the document's shape; every error says what is wrong and what to do. */
export function parseSavepoint(bytes: Uint8Array): SavepointDocument {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new Error(`savepoint: the file is corrupted (not UTF-8 JSON: ${(e as Error).message}); export the savepoint again`);
  }
  const head = json as Partial<SavepointDocument> | null;
  if (!head || typeof head !== 'object' || head.format !== SAVEPOINT_FORMAT) {
    throw new Error(`savepoint: wrong format ${JSON.stringify(head && typeof head === 'object' ? head.format : typeof head)}, expected "${SAVEPOINT_FORMAT}"; is this a Weir savepoint file?`);
  }
  if ((head.version as number) === 1) {
    throw new Error('savepoint: version 1 is not supported: it stored Map and Set state as empty objects, so restoring it would fail; take a new checkpoint with this Weir and export it again');
  }
  if (head.version !== SAVEPOINT_VERSION) throw new Error(`savepoint: version ${JSON.stringify(head.version)} is not supported (this Weir reads version ${SAVEPOINT_VERSION}); export it again with this version`);
  const d = decodeFromJson(json) as Partial<SavepointDocument>;
  const problems: string[] = [];
  if (typeof d.jobId !== 'string') problems.push('jobId is missing');
  if (!Number.isInteger(d.checkpointId)) problems.push('checkpointId is not an integer');
  if (!d.manifest || typeof d.manifest !== 'object' || typeof d.manifest.subtasks !== 'object') problems.push('manifest is missing');
  if (!Array.isArray(d.subtasks)) problems.push('subtasks is not a list');
  else {
    d.subtasks.forEach((s, i) => {
      if (!s || typeof s.subtask !== 'string') problems.push(`subtasks[${i}] has no subtask id`);
      else if (s.keyed?.type !== 'inline' || typeof s.keyed.snapshot?.keyGroups !== 'object') problems.push(`subtasks[${i}] (${s.subtask}) has no inline keyed state`);
      else if (d.manifest && typeof d.manifest.subtasks === 'object' && !(s.subtask in d.manifest.subtasks)) problems.push(`subtasks[${i}] (${s.subtask}) is not in the manifest`);
    });
    if (d.manifest && typeof d.manifest.subtasks === 'object') {
      for (const id of Object.keys(d.manifest.subtasks)) if (!d.subtasks.some((s) => s?.subtask === id)) problems.push(`subtask ${id} of the manifest is missing`);
    }
  }
  if (problems.length) throw new Error(`savepoint: the file is corrupted (${problems.join('; ')}); export the savepoint again`);
  return d as SavepointDocument;
}
