import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from './io.ts';

/** Node's error codes for a directory weir may not write in. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

function unwritable(dir: string, e: unknown): RefusedError {
  const code = (e as { code?: string }).code ?? 'error';
  return new RefusedError(`--state-dir ${dir} is not writable (${code}): weir keeps its checkpoints and committed output there; make it writable or give another directory`);
}

/** Whether a process of this pid runs (EPERM: it runs, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/**
 * An exclusive lock on a state directory for the life of one run: `DIR/weir.lock`, holding
 * the owner's pid. It is written to a temp file and hard-linked into place, which fails if the
 * lock exists, so no reader ever sees a lock without its pid. A second run on the same directory is refused with
 * that pid; a lock left by a killed process (its pid no longer runs) is taken over. Returns the
 * function that releases it.
 */
export function lockStateDir(dir: string, notice: (line: string) => void): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    if (NOT_WRITABLE.has((e as { code?: string }).code ?? '')) throw unwritable(dir, e);
    throw new RefusedError(`--state-dir ${dir}: cannot create the directory: ${(e as Error).message}`);
  }
  const file = join(dir, 'weir.lock');
  const tmp = `${file}.tmp-${process.pid}`;
  for (let tries = 0; ; tries++) {
    try {
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }) + '\n');
      linkSync(tmp, file);
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (NOT_WRITABLE.has(code)) throw unwritable(dir, e);
      if (code !== 'EEXIST' || tries > 2) throw new RefusedError(`--state-dir ${dir}: cannot take the lock ${file}: ${(e as Error).message}`);
      const holder = readHolder(file);
      if (holder && alive(holder.pid) && holder.pid !== process.pid) {
        throw new RefusedError(`--state-dir ${dir} is in use by another weir run (pid ${holder.pid}, started ${holder.started}); wait for it to end or give another --state-dir. (If no such run exists, delete ${file}.)`);
      }
      notice(`--state-dir ${dir}: taking over the lock of ${holder ? `pid ${holder.pid}, which no longer runs` : 'an unreadable lock file'}`);
      rmSync(file, { force: true });
      continue;
    } finally {
      rmSync(tmp, { force: true });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    };
    process.once('exit', release);
    return release;
  }
}

function readHolder(file: string): { pid: number; started: string } | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; started?: unknown };
    return typeof h.pid === 'number' ? { pid: h.pid, started: String(h.started ?? 'at an unknown time') } : null;
  } catch {
    return null;
  }
}
