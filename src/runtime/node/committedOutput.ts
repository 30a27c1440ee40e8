import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DeadLetter, Element } from '../../engine/types.ts';
import type { PendingCommit } from '../../checkpoint/types.ts';
import type { DeadLetterEpoch } from '../../checkpoint/types.ts';

interface Segment {
  origin: string;
  epoch: number;
  lines: string[];
}

const epochName = (epoch: number) => (epoch === Infinity ? 'end' : String(epoch));
const subtaskIndex = (origin: string) => Number(origin.slice(origin.lastIndexOf('#') + 1));
const bySubtaskThenEpoch = (a: Segment, b: Segment) => subtaskIndex(a.origin) - subtaskIndex(b.origin) || a.origin.localeCompare(b.origin) || a.epoch - b.epoch;

/**
 * The output of a parallel `weir run`: committed sink epochs and dead-letter epochs, each kept
 * once. With a directory (--state-dir), every epoch is a file written atomically (temp, fsync,
 * rename) as soon as it is published, which is before the next checkpoint can complete; a
 * resumed process reads which epochs exist and never publishes them again. At the end the
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
    return join(this.dir!, encodeURIComponent(group));
  }

  private add(group: string, seg: Segment): void {
    if (!this.dir) {
      const list = this.memory.get(group) ?? [];
      list.push(seg);
      this.memory.set(group, list);
      return;
    }
    const folder = this.folder(group);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${encodeURIComponent(seg.origin)}@${epochName(seg.epoch)}.jsonl`);
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, seg.lines.map((l) => l + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  }

  private segments(group: string): Segment[] {
    if (!this.dir) return [...(this.memory.get(group) ?? [])].sort(bySubtaskThenEpoch);
    const folder = this.folder(group);
    if (!existsSync(folder)) return [];
    const out: Segment[] = [];
    for (const f of readdirSync(folder)) {
      const m = /^(.*)@(\d+|end)\.jsonl$/.exec(f);
      if (!m) continue;
      const text = readFileSync(join(folder, f), 'utf8');
      out.push({ origin: decodeURIComponent(m[1]), epoch: m[2] === 'end' ? Infinity : Number(m[2]), lines: text.split('\n').filter((l) => l !== '') });
    }
    return out.sort(bySubtaskThenEpoch);
  }

  /** Keys (as the job manager writes them) of every epoch already published by an earlier process. */
  publishedKeys(sinkIds: readonly string[]): string[] {
    const keys: string[] = [];
    for (const id of sinkIds) for (const s of this.segments(`sink-${id}`)) keys.push(`${s.origin}@${s.epoch}`);
    for (const s of this.segments('dead-letters')) keys.push(`dead-letters:${s.origin}@${s.epoch}`);
    return keys;
  }

  publish(sinkId: string, c: PendingCommit, line: (el: Element) => string): void {
    this.add(`sink-${sinkId}`, { origin: c.origin, epoch: c.epoch, lines: c.els.map(line) });
  }

  deadLetters(e: DeadLetterEpoch): void {
    this.add('dead-letters', { origin: e.origin, epoch: e.epoch, lines: e.items.map((d) => JSON.stringify(d)) });
  }

  changelogLines(sinkId: string): string[] {
    return this.segments(`sink-${sinkId}`).flatMap((s) => s.lines);
  }

  /** Every committed dead letter, ordered by input line, then by content (arrival order across threads varies). */
  allDeadLetters(): DeadLetter[] {
    const all = this.segments('dead-letters').flatMap((s) => s.lines.map((l) => JSON.parse(l) as DeadLetter));
    const keyed = all.map((d) => ({ d, text: JSON.stringify(d) }));
    keyed.sort((a, b) => (a.d.line ?? Infinity) - (b.d.line ?? Infinity) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    return keyed.map((k) => k.d);
  }
}
