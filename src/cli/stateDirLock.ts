import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from './io.ts';

/** Node's error codes for a directory weir may not write in. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

function unwritable(dir: string, e: unknown): RefusedError {
  const code = (e as { code?: string }).code ?? 'error';
  return new RefusedError(`--state-dir ${dir} is not writable (${code}): weir keeps its checkpoints and committed output there; make it writable or give another directory`);
}

/**
 * Whether a process of this pid runs (EPERM: it runs, under another user). A zombie (exited,
 * not yet reaped by its parent) still answers signal 0, so on Linux its state in
 * /proc/<pid>/stat is checked too: state Z holds no lock.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EPERM') return false;
  }
  return !zombie(pid);
}

function zombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "pid (comm) state …": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 1).trim().startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * An exclusive lock on a state directory for the life of one run: `DIR/weir.lock`, holding
 * the owner's pid. It is written to a temp file and hard-linked into place, which fails if the
 * lock exists, so no reader ever sees a lock without its pid. A second run on the same directory
 * is refused with that pid. A lock left by a killed process (its pid no longer runs) is taken
 * over, but only under a second exclusive file, `weir.lock.takeover`: without it, two runs that
 * both found the dead lock could each remove it, the later one removing the lock the earlier had
 * just taken, and both would run. The takeover renames this run's lock over the dead one, so the
 * lock file never disappears: a run polling outside the guard cannot slip into a gap and win
 * while the guard's holder goes on to announce a takeover it then loses. Returns the function
 * that releases the lock.
 */
export function lockStateDir(dir: string, notice: (line: string) => void): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    if (NOT_WRITABLE.has((e as { code?: string }).code ?? '')) throw unwritable(dir, e);
    const code = (e as { code?: string }).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? `${code === 'EEXIST' ? dir : 'a part of its path'} is a file, not a directory` : (e as Error).message;
    throw new RefusedError(`--state-dir ${dir}: cannot create the directory: ${why}; give a directory weir may write in`);
  }
  const file = join(dir, 'weir.lock');
  const inUse = (holder: Holder) =>
    new RefusedError(`--state-dir ${dir} is in use by another weir run (pid ${holder.pid}, started ${holder.started}); wait for it to end or give another --state-dir. (If no such run exists, delete ${file}.)`);
  let waitedFor = 0;
  for (let tries = 0; ; tries++) {
    if (tries > 3000) throw new RefusedError(`--state-dir ${dir}: cannot take the lock ${file}: other runs keep taking it; try again`);
    if (exclusiveFile(dir, file) === 'taken') return releaser(file);
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && alive(holder.pid)) throw inUse(holder);
    // Stale (or unreadable): take it over, one run at a time.
    const guard = `${file}.takeover`;
    if (exclusiveFile(dir, guard) !== 'taken') {
      const g = readHolder(guard);
      // A run killed inside its takeover leaves the guard behind; anyone else's guard is waited for.
      if (!g || !alive(g.pid)) rmSync(guard, { force: true });
      else {
        if (waitedFor !== g.pid) notice(`--state-dir ${dir}: pid ${g.pid} is taking over a stale lock; waiting for it`);
        waitedFor = g.pid;
        sleep(20);
      }
      continue;
    }
    try {
      // Under the guard, look again: another run may have taken the lock over meanwhile.
      const now = readHolder(file);
      if (now && now.pid !== process.pid && alive(now.pid)) throw inUse(now);
      pauseBeforeTakeover(dir);
      notice(`--state-dir ${dir}: taking over the lock of ${now ? `pid ${now.pid}, which no longer runs` : 'an unreadable lock file'}`);
      replaceFile(dir, file);
      return releaser(file);
    } finally {
      if (readHolder(guard)?.pid === process.pid) rmSync(guard, { force: true });
    }
  }
}

/** The release of a lock this process holds: once, and on exit if the run forgets. */
function releaser(file: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.once('exit', release);
  return release;
}

interface Holder {
  pid: number;
  started: string;
}

const holderText = () => JSON.stringify({ pid: process.pid, started: new Date().toISOString() }) + '\n';

function lockError(dir: string, file: string, e: unknown): RefusedError {
  if (NOT_WRITABLE.has((e as { code?: string }).code ?? '')) return unwritable(dir, e);
  return new RefusedError(`--state-dir ${dir}: cannot take the lock ${file}: ${(e as Error).message}`);
}

/** Creates `file` holding this process's pid, atomically and only if it does not exist. */
function exclusiveFile(dir: string, file: string): 'taken' | 'exists' {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, holderText());
    linkSync(tmp, file);
    return 'taken';
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') return 'exists';
    throw lockError(dir, file, e);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Puts this process's pid in `file` in one atomic step, over whatever `file` held. */
function replaceFile(dir: string, file: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, holderText());
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw lockError(dir, file, e);
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Test hook: with `WEIR_LOCK_TAKEOVER_HOLD=name`, a run that holds the takeover guard waits
 * there until `DIR/name` exists (at most a minute), so that a test can have a second run find
 * the stale lock while the first is inside its takeover, without guessing how long start-up takes.
 */
function pauseBeforeTakeover(dir: string): void {
  const name = process.env.WEIR_LOCK_TAKEOVER_HOLD;
  if (!name) return;
  const until = Date.now() + 60_000;
  while (!existsSync(join(dir, name)) && Date.now() < until) sleep(20);
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; started?: unknown };
    return typeof h.pid === 'number' ? { pid: h.pid, started: String(h.started ?? 'at an unknown time') } : null;
  } catch {
    return null;
  }
}
