import type { DeadLetter } from '../core/types.ts';
import type { LogLine } from './protocol.ts';
import { recordText } from './describe.ts';

/** At most this many dead letters are spelled out per snapshot; the rest are counted. */
const DEAD_LINES = 20;

/** Log lines since the last snapshot, plus dead letters turned into lines with their record. */
export class RunLog {
  private lines: LogLine[] = [];
  private seq = 0;
  private deadCursor = 0;

  constructor(private readonly clock: () => number) {}

  add(level: LogLine['level'], message: string, node?: string, record?: string): void {
    this.lines.push({ seq: ++this.seq, level, at: this.clock(), node, message, record });
  }

  /** New dead letters (a UDF that throws lands here too) as warnings naming node and record. */
  deadLetters(all: readonly DeadLetter[]): void {
    if (all.length < this.deadCursor) this.deadCursor = 0;
    const fresh = all.slice(this.deadCursor, this.deadCursor + DEAD_LINES);
    for (const d of fresh) this.add('warn', `dead letter: ${d.line !== undefined ? `line ${d.line}: ` : ''}${d.reason}`, d.nodeId, recordText(d.row ?? d.raw));
    const more = all.length - this.deadCursor - fresh.length;
    if (more > 0) this.add('warn', `… and ${more} more dead letters`);
    this.deadCursor = all.length;
  }

  /** The first `n` dead letters were logged already (a replay of the run produced them again). */
  skipDeadLetters(n: number): void {
    this.deadCursor = n;
  }

  take(): LogLine[] {
    const out = this.lines;
    this.lines = [];
    return out;
  }

  restart(): void {
    this.lines = [];
    this.deadCursor = 0;
  }
}
