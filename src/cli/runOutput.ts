import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DeadLetter, Element, Row } from '../core/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { InvalidError } from './io.ts';
import { LineWriter, changelogLine, deadLetterLine, outputFile, writeDeadLetters, writeJsonFile } from './output.ts';

/** What a finished run leaves behind, for the summary. */
export interface OutputCounts {
  changelogRows: Map<string, number>;
  deadLetters: Map<string, number>;
}

/** Where `weir run` puts sink changelogs, views and dead letters: a directory or standard output. */
export interface RunOutput {
  readonly where: string;
  /** True when dead letters are written as they happen (stdout), not as files at the end. */
  readonly streamsDeadLetters: boolean;
  changelog(sinkId: string, els: readonly Element[]): void;
  deadLetter(d: DeadLetter): void;
  /** Hands buffered lines on; false when the reader is behind and input should pause until `onDrain`. */
  flush(): boolean;
  onDrain(resume: () => void): void;
  /** Writes what only exists at the end (views, dead-letter files) and closes. */
  finish(plan: JobPlan, results: { view(sinkId: string): Row[]; deadLetters(): readonly DeadLetter[] }): OutputCounts;
  /** Releases files after a failure; `finish` closes by itself. */
  close(): void;
}

/** `--out <dir>`: one changelog file per sink, written while the job runs, then views and dead letters. */
export class DirOutput implements RunOutput {
  readonly streamsDeadLetters = false;
  private readonly writers = new Map<string, LineWriter>();

  constructor(
    readonly where: string,
    sinkIds: readonly string[],
  ) {
    try {
      mkdirSync(where, { recursive: true });
    } catch (e) {
      throw new InvalidError([`--out ${where}: cannot create the output directory: ${(e as Error).message}`]);
    }
    try {
      for (const id of sinkIds) this.writers.set(id, new LineWriter(outputFile(where, id, 'changelog.jsonl')));
    } catch (e) {
      this.close();
      throw e;
    }
  }

  changelog(sinkId: string, els: readonly Element[]): void {
    const w = this.writers.get(sinkId)!;
    for (const el of els) w.write(changelogLine(el));
  }

  deadLetter(): void {}

  flush(): boolean {
    for (const w of this.writers.values()) w.flush();
    return true;
  }

  onDrain(resume: () => void): void {
    resume();
  }

  finish(plan: JobPlan, results: { view(sinkId: string): Row[]; deadLetters(): readonly DeadLetter[] }): OutputCounts {
    this.close();
    const changelogRows = new Map<string, number>();
    for (const [id, w] of this.writers) {
      changelogRows.set(id, w.lines);
      writeJsonFile(outputFile(this.where, id, 'view.json'), results.view(id));
    }
    const dead = results.deadLetters();
    const paths = new Map(plan.nodes.map((n) => [n.id, outputFile(this.where, n.id, 'dead-letter.jsonl')]));
    for (const d of dead) if (!paths.has(d.nodeId)) paths.set(d.nodeId, outputFile(this.where, d.nodeId, 'dead-letter.jsonl'));
    return { changelogRows, deadLetters: writeDeadLetters(paths, dead) };
  }

  private closed = false;

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.writers.values()) w.close();
  }
}

const FLUSH_AT = 1 << 16;

/**
 * `--out -`: every changelog row as `{"sink":"id","kind":"+I","row":{…}}` and every dead letter as
 * `{"deadLetter":"nodeId","line":N,"reason":"…","raw":"…"}`, one JSON line each, as they happen.
 */
export class StdoutOutput implements RunOutput {
  readonly where = 'standard output';
  readonly streamsDeadLetters = true;
  private chunks: string[] = [];
  private size = 0;
  private readonly rows = new Map<string, number>();
  private readonly dead = new Map<string, number>();
  /** Set when the reader went away (`weir run … --out - | head`): the run stops instead of crashing. */
  private broken: Error | null = null;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    sinkIds: readonly string[],
  ) {
    for (const id of sinkIds) this.rows.set(id, 0);
    stream.on('error', (e: NodeJS.ErrnoException) => {
      this.broken ??= new Error(e.code === 'EPIPE' ? 'standard output was closed by its reader' : `writing standard output: ${e.message}`);
    });
  }

  changelog(sinkId: string, els: readonly Element[]): void {
    // The sink id goes first so that a reader can route a line without parsing the row.
    const prefix = `{"sink":${JSON.stringify(sinkId)},`;
    for (const el of els) this.push(prefix + changelogLine(el).slice(1));
    this.rows.set(sinkId, this.rows.get(sinkId)! + els.length);
  }

  deadLetter(d: DeadLetter): void {
    this.push(`{"deadLetter":${JSON.stringify(d.nodeId)},` + deadLetterLine(d).slice(1));
    this.dead.set(d.nodeId, (this.dead.get(d.nodeId) ?? 0) + 1);
  }

  private push(line: string): void {
    this.chunks.push(line, '\n');
    this.size += line.length + 1;
    if (this.size >= FLUSH_AT) this.flush();
  }

  flush(): boolean {
    if (this.broken) throw this.broken;
    if (!this.chunks.length) return true;
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    return this.stream.write(text);
  }

  onDrain(resume: () => void): void {
    this.stream.once('drain', resume);
  }

  finish(): OutputCounts {
    this.flush();
    return { changelogRows: new Map(this.rows), deadLetters: new Map(this.dead) };
  }

  close(): void {
    if (!this.broken) this.flush();
  }
}
