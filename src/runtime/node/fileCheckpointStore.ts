import { readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import { storageError } from '../../storage/indexeddb/errors.ts';
import { parseTagged, stringifyTagged } from './taggedJson.ts';
import { fileNameFor, isTempFile, sealed, sha256, unseal, writeDurably } from './durableFiles.ts';

/** What a manifest records of each snapshot file it names; the file is trusted only if it still matches. */
interface FileDigest {
  bytes: number;
  sha256: string;
}
/** The file store's manifest: the checkpoint's, plus the length and SHA-256 of every snapshot file. */
type DigestedManifest = CheckpointManifest & { files?: Record<string, FileDigest> };

/** A checkpoint `inspect` could not use, and why. */
export interface SkippedCheckpoint {
  checkpointId: number;
  file: string;
  reason: string;
}

/**
 * Checkpoints as files, for `weir run --state-dir DIR`:
 *
 *   DIR/<jobId>/chk-<id>/<subtask>.json   one file per subtask snapshot
 *   DIR/<jobId>/manifest-<id>.json        written last; its existence makes checkpoint <id> visible
 *
 * Every file is written to a temp name, fsynced, renamed and its directory fsynced
 * (durableFiles.ts), so a killed process leaves either the old file or the new one. The manifest
 * records the length and SHA-256 of every snapshot file it names, and a snapshot is read only if
 * it still matches, so a file damaged or replaced outside weir is found, not restored. The
 * manifest carries its own length and SHA-256 on a second line (`sealed`): a manifest cut short
 * or edited is not read, and the checkpoint counts as absent (a resume falls back and says why). Data without a manifest (a torn checkpoint) is never listed and
 * is removed by `abort` or `cleanupUncommitted`.
 */
export class FileCheckpointStore implements CheckpointStore {
  /** Set to make the next subtask write fail, for fault injection. */
  failNextWrite: string | null = null;
  /** ref → length and checksum, from this process's writes and from every manifest read. */
  private readonly digests = new Map<string, FileDigest>();

  constructor(readonly dir: string) {}

  private jobDir(jobId: string): string {
    return join(this.dir, fileNameFor(jobId));
  }

  private manifestPath(jobId: string, id: number): string {
    return join(this.jobDir(jobId), `manifest-${id}.json`);
  }

  private checkpointDir(jobId: string, id: number): string {
    return join(this.jobDir(jobId), `chk-${id}`);
  }

  locate(jobId: string, checkpointId: number, ref?: string): { manifest: string; snapshot?: string } {
    return { manifest: this.manifestPath(jobId, checkpointId), snapshot: ref === undefined ? undefined : join(this.dir, ref) };
  }

  /** Every write goes through here (tests replace it to make a write fail). */
  private writeAtomic(path: string, text: string, label: string): Promise<void> {
    return writeDurably(path, text, label);
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    if (this.failNextWrite) {
      const reason = this.failNextWrite;
      this.failNextWrite = null;
      throw new Error(reason);
    }
    const ref = `${fileNameFor(jobId)}/chk-${checkpointId}/${fileNameFor(snap.subtask)}.json`;
    const text = stringifyTagged(snap);
    try {
      await this.writeAtomic(join(this.dir, ref), text, `chk-${checkpointId}`);
    } catch (e) {
      throw storageError(e, `writing checkpoint ${checkpointId} of ${snap.subtask}`, await this.lastGood(jobId));
    }
    const bytes = Buffer.byteLength(text);
    this.digests.set(ref, { bytes, sha256: sha256(text) });
    return { ref, bytes };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    const files: Record<string, FileDigest> = {};
    for (const ref of Object.values(manifest.subtasks)) {
      const d = this.digests.get(ref) ?? (await this.digestOnDisk(ref));
      if (d) files[ref] = d;
    }
    try {
      await this.writeAtomic(this.manifestPath(manifest.jobId, manifest.checkpointId), sealed(stringifyTagged({ ...manifest, files } as DigestedManifest)), `chk-${manifest.checkpointId}`);
    } catch (e) {
      throw storageError(e, `committing checkpoint ${manifest.checkpointId}`, await this.lastGood(manifest.jobId));
    }
  }

  /** A snapshot file this process did not write (kept from a checkpoint before a resume): its digest as it is now. */
  private async digestOnDisk(ref: string): Promise<FileDigest | null> {
    const data = await readFile(join(this.dir, ref)).catch(() => null);
    return data && { bytes: data.length, sha256: sha256(data) };
  }

  private async lastGood(jobId: string): Promise<number | null | undefined> {
    return this.latest(jobId).then(
      (m) => m?.checkpointId ?? null,
      () => undefined,
    );
  }

  private async entries(jobId: string): Promise<string[]> {
    try {
      return await readdir(this.jobDir(jobId));
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return [];
      throw e;
    }
  }

  private async manifestIds(jobId: string): Promise<number[]> {
    const ids: number[] = [];
    for (const name of await this.entries(jobId)) {
      const m = /^manifest-(\d+)\.json$/.exec(name);
      if (m) ids.push(Number(m[1]));
    }
    return ids.sort((a, b) => a - b);
  }

  private async readManifest(jobId: string, id: number): Promise<CheckpointManifest | null> {
    return (await this.loadManifest(jobId, id)).manifest;
  }

  private async loadManifest(jobId: string, id: number): Promise<{ manifest: CheckpointManifest | null; reason?: string }> {
    let text: string;
    try {
      text = await readFile(this.manifestPath(jobId, id), 'utf8');
    } catch (e) {
      return { manifest: null, reason: `it cannot be read (${(e as Error).message})` };
    }
    const whole = unseal(text);
    // Renames are atomic, so this is a file damaged outside weir: the checkpoint is absent.
    if ('problem' in whole) return { manifest: null, reason: `the manifest is damaged (${whole.problem})` };
    try {
      const m = parseTagged(whole.body) as CheckpointManifest;
      if (!m || typeof m !== 'object' || m.checkpointId !== id || typeof m.subtasks !== 'object' || m.subtasks === null) return { manifest: null, reason: 'its content is not a checkpoint manifest' };
      // The digests are this store's own bookkeeping: kept here, not handed to callers.
      const { files, ...manifest } = m as DigestedManifest;
      if (files && typeof files === 'object') {
        for (const [ref, d] of Object.entries(files)) if (d && typeof d.bytes === 'number' && typeof d.sha256 === 'string') this.digests.set(ref, { bytes: d.bytes, sha256: d.sha256 });
      }
      return { manifest };
    } catch (e) {
      return { manifest: null, reason: `the manifest is damaged (${(e as Error).message})` };
    }
  }

  async latest(jobId: string): Promise<CheckpointManifest | null> {
    const ids = await this.manifestIds(jobId);
    for (let i = ids.length - 1; i >= 0; i--) {
      const m = await this.readManifest(jobId, ids[i]);
      if (m) return m;
    }
    return null;
  }

  /**
   * The newest checkpoint whose manifest and every subtask file can be read, and each newer one
   * that could not (with the file and the reason). `setAside` renames the manifests of those
   * to `manifest-<id>.json.damaged`, so that no later restore picks them up again.
   */
  async inspect(jobId: string, setAside = false): Promise<{ usable: CheckpointManifest | null; skipped: SkippedCheckpoint[] }> {
    const ids = await this.manifestIds(jobId);
    const skipped: SkippedCheckpoint[] = [];
    let usable: CheckpointManifest | null = null;
    for (let i = ids.length - 1; i >= 0 && !usable; i--) {
      const problem = await this.problemOf(jobId, ids[i]);
      if (problem) skipped.push({ checkpointId: ids[i], ...problem });
      else usable = await this.readManifest(jobId, ids[i]);
    }
    if (setAside) for (const s of skipped) await rename(this.manifestPath(jobId, s.checkpointId), `${this.manifestPath(jobId, s.checkpointId)}.damaged`).catch(() => {});
    return { usable, skipped };
  }

  private async problemOf(jobId: string, id: number): Promise<{ file: string; reason: string } | null> {
    const file = this.manifestPath(jobId, id);
    const { manifest, reason } = await this.loadManifest(jobId, id);
    if (!manifest) return { file, reason: reason ?? 'unreadable' };
    for (const ref of Object.values(manifest.subtasks)) {
      try {
        await this.readSubtask(ref);
      } catch (e) {
        return { file: join(this.dir, ref), reason: (e as Error).message };
      }
    }
    return null;
  }

  async list(jobId: string): Promise<CheckpointManifest[]> {
    const out: CheckpointManifest[] = [];
    for (const id of await this.manifestIds(jobId)) {
      const m = await this.readManifest(jobId, id);
      if (m) out.push(m);
    }
    return out;
  }

  async readSubtask(ref: string): Promise<SubtaskSnapshot> {
    if (!/^[^/\\]+\/chk-\d+\/[^/\\]+\.json$/.test(ref) || ref.includes('..')) throw new Error(`checkpoint reference ${ref} is not one of this store's`);
    const file = join(this.dir, ref);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch {
      throw new Error(`checkpoint data ${file} is missing`);
    }
    const digest = this.digests.get(ref);
    if (digest && data.length !== digest.bytes) throw new Error(`checkpoint data ${file} is damaged (it has ${data.length} bytes where ${digest.bytes} were written); the checkpoint cannot be restored`);
    if (digest && sha256(data) !== digest.sha256) throw new Error(`checkpoint data ${file} is damaged (its SHA-256 differs from the one its manifest recorded); the checkpoint cannot be restored`);
    const text = data.toString('utf8');
    let snap: SubtaskSnapshot;
    try {
      snap = parseTagged(text) as SubtaskSnapshot;
    } catch (e) {
      throw new Error(`checkpoint data ${file} is damaged (${(e as Error).message}); the checkpoint cannot be restored`);
    }
    if (!snap || typeof snap !== 'object' || typeof snap.subtask !== 'string' || !snap.keyed) throw new Error(`checkpoint data ${file} is damaged (not a subtask snapshot); the checkpoint cannot be restored`);
    return snap;
  }

  async discard(jobId: string, checkpointId: number): Promise<void> {
    const others = (await this.list(jobId)).filter((m) => m.checkpointId !== checkpointId);
    const stillUsed = new Set(others.flatMap((m) => Object.values(m.subtasks)));
    // The manifest goes first: from then on the checkpoint is invisible, whatever happens to its data.
    await unlink(this.manifestPath(jobId, checkpointId)).catch(() => {});
    const dir = this.checkpointDir(jobId, checkpointId);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const f of files) {
      if (!stillUsed.has(`${fileNameFor(jobId)}/chk-${checkpointId}/${f}`)) await rm(join(dir, f), { force: true });
    }
    if (files.every((f) => !stillUsed.has(`${fileNameFor(jobId)}/chk-${checkpointId}/${f}`))) await rm(dir, { recursive: true, force: true });
  }

  async abort(jobId: string, checkpointId: number): Promise<void> {
    // A committed checkpoint is never aborted away: only `discard` removes it.
    if ((await this.manifestIds(jobId)).includes(checkpointId)) return;
    await rm(this.checkpointDir(jobId, checkpointId), { recursive: true, force: true });
  }

  /** Removes torn checkpoints (data without a manifest) and stray temp files; returns the torn ids. */
  async cleanupUncommitted(jobId: string): Promise<number[]> {
    const committed = new Set(await this.manifestIds(jobId));
    const torn: number[] = [];
    for (const name of await this.entries(jobId)) {
      const chk = /^chk-(\d+)$/.exec(name);
      if (chk && !committed.has(Number(chk[1]))) {
        torn.push(Number(chk[1]));
        await rm(join(this.jobDir(jobId), name), { recursive: true, force: true });
      } else if (isTempFile(name)) await rm(join(this.jobDir(jobId), name), { force: true });
    }
    return torn.sort((a, b) => a - b);
  }
}
