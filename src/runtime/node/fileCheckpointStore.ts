import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import { storageError } from '../../state/indexeddb/errors.ts';
import { parseTagged, stringifyTagged } from './taggedJson.ts';

/**
 * Checkpoints as files, for `weir run --state-dir DIR`:
 *
 *   DIR/<jobId>/chk-<id>/<subtask>.json   one file per subtask snapshot
 *   DIR/<jobId>/manifest-<id>.json        written last; its existence makes checkpoint <id> visible
 *
 * Every file is written to a temp name, fsynced and renamed, so a killed process leaves either
 * the old file or the new one. Data without a manifest (a torn checkpoint) is never listed and
 * is removed by `abort` or `cleanupUncommitted`.
 */
export class FileCheckpointStore implements CheckpointStore {
  /** Set to make the next subtask write fail, for fault injection. */
  failNextWrite: string | null = null;
  private tmpSerial = 0;

  constructor(readonly dir: string) {}

  private jobDir(jobId: string): string {
    return join(this.dir, encodeURIComponent(jobId));
  }

  private manifestPath(jobId: string, id: number): string {
    return join(this.jobDir(jobId), `manifest-${id}.json`);
  }

  private checkpointDir(jobId: string, id: number): string {
    return join(this.jobDir(jobId), `chk-${id}`);
  }

  private async writeAtomic(path: string, text: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${this.tmpSerial++}`;
    try {
      const fh = await open(tmp, 'w');
      try {
        await fh.writeFile(text);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    await syncDir(dirname(path));
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    if (this.failNextWrite) {
      const reason = this.failNextWrite;
      this.failNextWrite = null;
      throw new Error(reason);
    }
    const ref = `${encodeURIComponent(jobId)}/chk-${checkpointId}/${encodeURIComponent(snap.subtask)}.json`;
    const text = stringifyTagged(snap);
    try {
      await this.writeAtomic(join(this.dir, ref), text);
    } catch (e) {
      throw storageError(e, `writing checkpoint ${checkpointId} of ${snap.subtask}`, await this.lastGood(jobId));
    }
    return { ref, bytes: Buffer.byteLength(text) };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    try {
      await this.writeAtomic(this.manifestPath(manifest.jobId, manifest.checkpointId), stringifyTagged(manifest));
    } catch (e) {
      throw storageError(e, `committing checkpoint ${manifest.checkpointId}`, await this.lastGood(manifest.jobId));
    }
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
    try {
      return parseTagged(await readFile(this.manifestPath(jobId, id), 'utf8')) as CheckpointManifest;
    } catch {
      // Renames are atomic, so this is a file damaged outside weir: treat the checkpoint as absent.
      return null;
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
    let text: string;
    try {
      text = await readFile(join(this.dir, ref), 'utf8');
    } catch {
      throw new Error(`checkpoint data ${ref} is missing`);
    }
    return parseTagged(text) as SubtaskSnapshot;
  }

  async discard(jobId: string, checkpointId: number): Promise<void> {
    const others = (await this.list(jobId)).filter((m) => m.checkpointId !== checkpointId);
    const stillUsed = new Set(others.flatMap((m) => Object.values(m.subtasks)));
    // The manifest goes first: from then on the checkpoint is invisible, whatever happens to its data.
    await unlink(this.manifestPath(jobId, checkpointId)).catch(() => {});
    const dir = this.checkpointDir(jobId, checkpointId);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const f of files) {
      if (!stillUsed.has(`${encodeURIComponent(jobId)}/chk-${checkpointId}/${f}`)) await rm(join(dir, f), { force: true });
    }
    if (files.every((f) => !stillUsed.has(`${encodeURIComponent(jobId)}/chk-${checkpointId}/${f}`))) await rm(dir, { recursive: true, force: true });
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
      } else if (name.includes('.tmp-')) await rm(join(this.jobDir(jobId), name), { force: true });
    }
    return torn.sort((a, b) => a - b);
  }
}

/** Makes a rename durable (the directory entry itself); not every platform allows it, so failures are ignored. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Windows cannot open directories; the rename is still atomic there.
  }
}
