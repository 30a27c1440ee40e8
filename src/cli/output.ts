import { join } from 'node:path';
import { closeSync, existsSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import type { DeadLetter, Element } from '../core/types.ts';
import { fileNameFor } from '../runtime/node/durableFiles.ts';

/** `<dir>/<id>.<suffix>`, with the id encoded and bounded as a file name (ids may be 10,000 characters long). */
export const outputFile = (dir: string, id: string, suffix: string) => join(dir, `${fileNameFor(id)}.${suffix}`);

const FLUSH_AT = 1 << 16;

/** Appends lines to a file through one buffer, so a million rows cost a few dozen syscalls. */
export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;
  lines = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(line: string): void {
    this.chunks.push(line, '\n');
    this.size += line.length + 1;
    this.lines++;
    if (this.size >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (!this.chunks.length) return;
    writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.size = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

export const changelogLine = (el: Element): string => JSON.stringify({ kind: el.kind, row: el.row });

/**
 * `{"line":N,"reason":"...","raw":"..."}`: line and raw when the record came from a file, else the
 * row; a later node's dead letter names the source and file its record's line is in.
 */
export function deadLetterLine(d: DeadLetter): string {
  const out: Record<string, unknown> = {};
  if (d.file !== undefined) out.file = d.file;
  if (d.line !== undefined) out.line = d.line;
  if (d.source !== undefined) out.source = d.source;
  out.reason = d.reason;
  if (d.raw !== undefined) out.raw = d.raw;
  else if (d.row !== undefined) out.row = d.row;
  return JSON.stringify(out);
}

/**
 * "first: orders.jsonl:3 (source visits): map code threw: …" for the summary: the dead letter of a
 * node's earliest input line, at the file and line its record was read from (file:line, the form
 * editors jump to); null when the node's records carry no line.
 */
export function firstDeadLetter(dead: readonly DeadLetter[], nodeId: string): string | null {
  // The lowest line: at --parallelism N, dead letters arrive in no particular order.
  let d: DeadLetter | undefined;
  for (const x of dead) if (x.nodeId === nodeId && x.source !== undefined && (!d || x.line! < d.line!)) d = x;
  return d ? `first: ${d.file !== undefined ? `${d.file}:${d.line}` : `line ${d.line} of the input`} (source ${d.source}): ${d.reason}` : null;
}

export function writeJsonFile(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}

/** Writes each node's dead letters; removes a stale file from an earlier run when a node has none now. */
export function writeDeadLetters(paths: Map<string, string>, dead: readonly DeadLetter[]): Map<string, number> {
  const byNode = new Map<string, DeadLetter[]>();
  for (const d of dead) {
    const list = byNode.get(d.nodeId);
    if (list) list.push(d);
    else byNode.set(d.nodeId, [d]);
  }
  const counts = new Map<string, number>();
  for (const [nodeId, path] of paths) {
    const list = byNode.get(nodeId);
    if (!list) {
      if (existsSync(path)) rmSync(path);
      continue;
    }
    const w = new LineWriter(path);
    try {
      for (const d of list) w.write(deadLetterLine(d));
    } finally {
      w.close();
    }
    counts.set(nodeId, list.length);
  }
  return counts;
}
