import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { DeadLetter, Element } from '../../core/types.ts';
import type { PendingCommit } from '../../checkpoint/types.ts';
import type { DeadLetterEpoch } from '../../checkpoint/types.ts';
import { fileNameFor, isTempFile, sha256, writeDurablySync } from './durableFiles.ts';

interface Segment {
  origin: string;
  epoch: number;
  lines: string[];
}

/** What the commit marker of an epoch file records; the file is trusted only if it still matches. */
interface CommitMarker {
  group: string;
  origin: string;
  epoch: number | 'end';
  rows: number;
  bytes: number;
  sha256: string;
}

/** A committed epoch found on disk by `scan`. */
export interface CommittedEpoch {
  group: string;
  origin: string;
  epoch: number;
  file: string;
  rows: number;
}

export interface DamagedEpoch {
  file: string;
  epoch: number;
  reason: string;
  /** `origin@epoch`, when the marker could still be read. */
  key?: string;
}

export interface ScanResult {
  committed: CommittedEpoch[];
  damaged: DamagedEpoch[];
  /** Data files whose marker was never written (a kill inside the commit) and temp files. */
  uncommitted: string[];
}

const epochName = (epoch: number) => (epoch === Infinity ? 'end' : String(epoch));
/** The crash-point label of an epoch: the checkpoint that committed it. */
export const commitLabel = (epoch: number) => `chk-${epochName(epoch)}`;
const subtaskIndex = (origin: string) => Number(origin.slice(origin.lastIndexOf('#') + 1));
const bySubtaskThenEpoch = (a: Segment, b: Segment) => subtaskIndex(a.origin) - subtaskIndex(b.origin) || a.origin.localeCompare(b.origin) || a.epoch - b.epoch;
const MARKER = '.commit';

/**
 * The output of a parallel `weir run`: committed sink epochs and dead-letter epochs, each kept
 * once. With a directory (--state-dir), publishing an epoch is a commit in two durable steps:
 * the data file (temp, fsync, rename, fsync of the directory), then its commit marker (the
 * same way) recording its rows, length and SHA-256. Only an epoch with a marker that matches
 * its data counts as published; a data file without a marker is a commit a kill interrupted.
 * A resumed process reads which epochs exist and never publishes them again. At the end the
 * changelog is assembled sink subtask by sink subtask, each in commit order.
 */
export class CommittedOutput {
  private readonly memory = new Map<string, Segment[]>();

  constructor(private readonly dir: string | null) {}

  /** Starts over (a run without --resume): forget what an earlier process published. */
  clear(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.memory.clear();
  }

  private folder(group: string): string {
    return join(this.dir!, fileNameFor(group));
  }

  private add(group: string, seg: Segment): void {
    if (!this.dir) {
      const list = this.memory.get(group) ?? [];
      list.push(seg);
      this.memory.set(group, list);
      return;
    }
    const file = join(this.folder(group), `${fileNameFor(seg.origin)}@${epochName(seg.epoch)}.jsonl`);
    const text = seg.lines.map((l) => l + '\n').join('');
    const label = commitLabel(seg.epoch);
    writeDurablySync(file, text, label);
    const marker: CommitMarker = { group, origin: seg.origin, epoch: seg.epoch === Infinity ? 'end' : seg.epoch, rows: seg.lines.length, bytes: Buffer.byteLength(text), sha256: sha256(text) };
    writeDurablySync(file + MARKER, JSON.stringify(marker) + '\n', label);
  }

  /** Every epoch file on disk, sorted into committed (marker and data agree), damaged and uncommitted. */
  scan(): ScanResult {
    const result: ScanResult = { committed: [], damaged: [], uncommitted: [] };
    if (!this.dir || !existsSync(this.dir)) return result;
    for (const groupName of readdirSync(this.dir)) {
      const folder = join(this.dir, groupName);
      const names = new Set(readdirSync(folder));
      for (const name of names) {
        const file = join(folder, name);
        if (isTempFile(name)) result.uncommitted.push(file);
        else if (name.endsWith('.jsonl') && !names.has(name + MARKER)) result.uncommitted.push(file);
        else if (name.endsWith(MARKER)) {
          const found = verify(file.slice(0, -MARKER.length));
          if ('ok' in found) result.committed.push(found.ok);
          else result.damaged.push(found.bad);
        }
      }
    }
    return result;
  }

  /** Removes epoch files: uncommitted leftovers, or epochs rolled back to an earlier checkpoint. */
  remove(files: readonly string[]): void {
    for (const f of files) {
      rmSync(f + MARKER, { force: true });
      rmSync(f, { force: true });
    }
  }

  /**
   * The group's epochs in output order, each read only when its lines are asked for: the
   * changelog of a long run is written out one epoch file at a time, never held whole.
   */
  private *segments(group: string): Generator<Segment> {
    if (!this.dir) {
      yield* [...(this.memory.get(group) ?? [])].sort(bySubtaskThenEpoch);
      return;
    }
    const files = this.scanGroup(group).map((c) => ({ origin: c.origin, epoch: c.epoch, lines: [] as string[], file: c.file }));
    for (const c of files.sort(bySubtaskThenEpoch)) {
      const text = readFileSync(c.file, 'utf8');
      if (sha256(text) !== (JSON.parse(readFileSync(c.file + MARKER, 'utf8')) as CommitMarker).sha256) throw new Error(`committed output ${c.file} changed while the job ran: its checksum no longer matches its commit marker`);
      yield { origin: c.origin, epoch: c.epoch, lines: text.split('\n').filter((l) => l !== '') };
    }
  }

  private scanGroup(group: string): CommittedEpoch[] {
    const { committed, damaged } = this.scan();
    const bad = damaged.find((d) => d.file.startsWith(this.folder(group) + sep));
    if (bad) throw new Error(`committed output ${bad.file} is damaged: ${bad.reason}`);
    return committed.filter((c) => c.group === group);
  }

  /** Keys (as the job manager writes them) of every epoch already published by an earlier process. */
  publishedKeys(sinkIds: readonly string[]): string[] {
    if (!this.dir) return [];
    const groups = new Set([...sinkIds.map((id) => `sink-${id}`), 'dead-letters']);
    return this.scan()
      .committed.filter((c) => groups.has(c.group))
      .map((c) => `${c.group === 'dead-letters' ? 'dead-letters:' : ''}${c.origin}@${c.epoch}`);
  }

  publish(sinkId: string, c: PendingCommit, line: (el: Element) => string): void {
    this.add(`sink-${sinkId}`, { origin: c.origin, epoch: c.epoch, lines: c.els.map(line) });
  }

  deadLetters(e: DeadLetterEpoch): void {
    this.add('dead-letters', { origin: e.origin, epoch: e.epoch, lines: e.items.map((d) => JSON.stringify(d)) });
  }

  /** The sink's changelog, sink subtask by sink subtask, each in commit order; read as it is iterated. */
  *changelogLines(sinkId: string): Generator<string> {
    for (const s of this.segments(`sink-${sinkId}`)) yield* s.lines;
  }

  /** Every committed dead letter, ordered by input line, then by content (arrival order across threads varies). */
  allDeadLetters(): DeadLetter[] {
    const all = [...this.segments('dead-letters')].flatMap((s) => s.lines.map((l) => JSON.parse(l) as DeadLetter));
    const keyed = all.map((d) => ({ d, text: JSON.stringify(d) }));
    keyed.sort((a, b) => (a.d.line ?? Infinity) - (b.d.line ?? Infinity) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    return keyed.map((k) => k.d);
  }
}

/** Checks an epoch file against its marker: rows, length and SHA-256 must all agree. */
function verify(file: string): { ok: CommittedEpoch } | { bad: DamagedEpoch } {
  let marker: CommitMarker;
  try {
    marker = JSON.parse(readFileSync(file + MARKER, 'utf8')) as CommitMarker;
    if (typeof marker.group !== 'string' || typeof marker.origin !== 'string' || typeof marker.bytes !== 'number' || typeof marker.sha256 !== 'string') throw new Error('fields are missing');
  } catch (e) {
    return { bad: { file, epoch: Infinity, reason: `its commit marker ${file + MARKER} is unreadable (${(e as Error).message})` } };
  }
  const epoch = marker.epoch === 'end' ? Infinity : marker.epoch;
  const key = `${marker.origin}@${epoch}`;
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return { bad: { file, epoch, key, reason: 'the file is missing although its commit marker exists' } };
  }
  if (data.length !== marker.bytes) return { bad: { file, epoch, key, reason: `it has ${data.length} bytes where ${marker.bytes} were committed` } };
  if (sha256(data) !== marker.sha256) return { bad: { file, epoch, key, reason: 'its SHA-256 differs from the one committed' } };
  return { ok: { group: marker.group, origin: marker.origin, epoch, file, rows: marker.rows } };
}
