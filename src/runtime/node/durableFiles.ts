import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';

/** One step of a durable write; a crash point can stop the process right after any of them. */
export type DurableStep = 'write' | 'fsync' | 'rename' | 'fsync-dir';

/**
 * Fault injection for the commit protocol: `WEIR_CRASH_AFTER=<label>:<n>` kills the process
 * (SIGKILL, nothing flushed, no handlers) right after the n-th durable step of the writes
 * labelled <label> — e.g. `chk-3:5`, the fifth step of everything checkpoint 3 writes (its
 * snapshots, its manifest, the output epochs it commits). Steps are counted, not timed, so
 * every point of one commit can be hit in turn.
 */
const crashAt = parseCrashPoint(process.env.WEIR_CRASH_AFTER);
const stepsByLabel = new Map<string, number>();

function parseCrashPoint(spec: string | undefined): { label: string; step: number } | null {
  const m = spec ? /^(.+):(\d+)$/.exec(spec) : null;
  return m ? { label: m[1], step: Number(m[2]) } : null;
}

function after(step: DurableStep, label: string): void {
  if (!crashAt || crashAt.label !== label) return;
  const n = (stepsByLabel.get(label) ?? 0) + 1;
  stepsByLabel.set(label, n);
  if (n === crashAt.step) {
    process.stderr.write(`weir: crash point ${label}:${n} (after ${step})\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

let serial = 0;
const tmpName = (path: string) => `${path}.tmp-${process.pid}-${serial++}`;

/**
 * Writes `text` so that a kill at any moment leaves the old file or the whole new one:
 * temp file, fsync, rename, fsync of the directory (so the rename itself survives a power cut).
 */
export async function writeDurably(path: string, text: string, label: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tmpName(path);
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(text);
      after('write', label);
      await fh.sync();
      after('fsync', label);
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    after('rename', label);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dirname(path));
  after('fsync-dir', label);
}

/** `writeDurably` for callers on a synchronous path (the committed output of the job manager). */
export function writeDurablySync(path: string, text: string, label: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tmpName(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      const buf = Buffer.from(text);
      let at = 0;
      while (at < buf.length) at += writeSync(fd, buf, at, buf.length - at);
      after('write', label);
      fsyncSync(fd);
      after('fsync', label);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    after('rename', label);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDirSync(dirname(path));
  after('fsync-dir', label);
}

export const isTempFile = (name: string) => /\.tmp-\d+-\d+$/.test(name);

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A one-line text followed by a line with its length and SHA-256: a file that says itself whether
 * it is whole. Rename makes a write atomic, but a file cut short or edited outside weir (a full
 * disk, a copy, a hand edit) would otherwise still be read as long as it parses.
 */
export function sealed(body: string): string {
  if (body.includes('\n')) throw new Error('a sealed file holds one line');
  return `${body}\n${JSON.stringify({ bytes: Buffer.byteLength(body), sha256: sha256(body) })}\n`;
}

/** The body of a `sealed` text, or why it cannot be trusted. */
export function unseal(text: string): { body: string } | { problem: string } {
  const lines = text.split('\n');
  if (lines.length < 2 || (lines.length === 2 && lines[1] === '')) return { problem: 'it has no length and checksum line: it was cut short, or written by a weir that did not seal its manifests' };
  if (lines.length > 3 || (lines.length === 3 && lines[2] !== '')) return { problem: 'it has more than its body and its length and checksum line: it was edited or appended to' };
  let seal: { bytes?: unknown; sha256?: unknown };
  try {
    seal = JSON.parse(lines[1]) as typeof seal;
  } catch {
    return { problem: 'its length and checksum line is unreadable: it was cut short or edited' };
  }
  const body = lines[0];
  const bytes = Buffer.byteLength(body);
  if (seal.bytes !== bytes) return { problem: `it has ${bytes} bytes where ${String(seal.bytes)} were written` };
  if (seal.sha256 !== sha256(body)) return { problem: 'its SHA-256 differs from the one written with it' };
  return { body };
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

function syncDirSync(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // as above
  }
}

/**
 * A file name for an arbitrary id: percent-encoded, and at most `max` characters, so that a
 * 10,000-character node id does not fail with ENAMETOOLONG. Long names keep a readable prefix
 * and end in a hash of the whole id, so they stay distinct.
 */
export function fileNameFor(id: string, max = 120): string {
  const encoded = encodeURIComponent(id).replace(/\*/g, '%2A');
  if (encoded.length <= max) return encoded;
  return `${encoded.slice(0, max - 18).replace(/%[0-9A-F]?$/i, '')}~${sha256(id).slice(0, 16)}`;
}
