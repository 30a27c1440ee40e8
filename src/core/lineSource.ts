import type { FileIdentity, SourcePosition } from './source.ts';

/**
 * Lines of an input by index, read on demand. A reader asks for line i, then i + 1, …; a file
 * too large to hold is read in blocks, so only the lines near the reader are in memory.
 */
export interface LineSource {
  /** Line `i` (0-based) without its line break, or undefined past the end of the input. */
  line(i: number): string | undefined;
  /** Where line `i` can be found again quickly (a checkpoint keeps it): the nearest block start at or before it, and the file's identity. */
  position?(i: number): SourcePosition | undefined;
  /**
   * A position from an earlier run (a checkpoint), so a seek far into the file need not scan it.
   * Throws when the position belongs to another file (its identity differs): reading on from it
   * would read another file's records as if they followed the checkpoint's.
   */
  hint?(p: SourcePosition): void;
}

/** Lines already in memory (the CLI's files, pasted text, tests). */
export function arrayLines(lines: readonly string[]): LineSource {
  return { line: (i) => lines[i] };
}

/** Random-access bytes of a file: a browser `Blob` (read with FileReaderSync in a worker) or a file descriptor. */
export interface ByteSource {
  readonly size: number;
  /** Bytes [start, end) (end is clamped to the size). */
  read(start: number, end: number): Uint8Array;
}

/** A file given to a source as bytes, read in blocks rather than whole. */
export interface ByteInput {
  name: string;
  bytes: ByteSource;
}

/**
 * A file named by its path, for a runtime whose source runs on another thread: the path crosses
 * the thread boundary (lines would be copied whole), and the thread that reads opens the file
 * and reads it in blocks. `size` is the length counted when the run started, so every thread
 * reads the same prefix even if the file grows; `lineCount` is the number of lines in it.
 */
export interface FileInput {
  name: string;
  path: string;
  size: number;
  lineCount: number;
}

export const BLOCK_BYTES = 1 << 20;
/** How much of each end of a file its identity hashes (see FileIdentity). */
const IDENTITY_BYTES = 1 << 16;
const LF = 0x0a;
const CR = 0x0d;
/** A line ends at LF, CRLF or a lone CR (old Mac files: without it the whole file would be one line). */
export const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Where a block may be cut: just after its last line break. A CR as the block's last byte may be
 * the first half of a CRLF whose LF is in the next block, so (before the end of the file) the cut
 * goes before it instead, and the CR is read again with its LF.
 */
function lastBreak(buf: Uint8Array, atEnd: boolean): number {
  for (let i = buf.length - 1; i >= 0; i--) {
    const b = buf[i];
    if (b === LF) return i + 1;
    if (b === CR) {
      if (i === buf.length - 1 && !atEnd) continue;
      return i + 1;
    }
  }
  return 0;
}

/**
 * Lines of a byte source, decoded as UTF-8 one block (about 1 MB, ending at a line break) at a
 * time. Only the current block's lines are held; every block start is remembered as
 * (line, byte), so going back (a restore, a rewind) re-reads from the block that holds the line.
 * Lines end at LF, CRLF or a lone CR.
 */
export class StreamedLines implements LineSource {
  private identity: FileIdentity | null = null;
  private lines: string[] = [];
  /** Index of lines[0]. */
  private first = 0;
  /** Byte where the block after `lines` starts; always the start of a line. */
  private nextByte = 0;
  private ended = false;
  /** Block starts seen, sorted by line: the index a rewind jumps back with. */
  private readonly points: { line: number; byte: number }[] = [{ line: 0, byte: 0 }];

  constructor(
    private readonly bytes: ByteSource,
    private readonly blockBytes = BLOCK_BYTES,
    /** For messages: the file's name. */
    private readonly name = 'the file',
  ) {
    this.ended = bytes.size === 0;
  }

  /** Read once, when the first checkpoint asks where the reader is. */
  private fileIdentity(): FileIdentity {
    return (this.identity ??= fileIdentity(this.bytes, Math.min(IDENTITY_BYTES, this.blockBytes)));
  }

  line(i: number): string | undefined {
    const end = this.first + this.lines.length;
    // Back before the block, or past the next one to a remembered block start: jump instead of scanning.
    if (i < this.first || (i > end && (this.position(i)?.line ?? 0) > end)) this.jumpTo(i);
    while (i >= this.first + this.lines.length && !this.ended) this.load();
    return this.lines[i - this.first];
  }

  position(i: number): SourcePosition | undefined {
    let best: { line: number; byte: number } | undefined;
    for (const p of this.points) if (p.line <= i) best = p;
    return best && { line: best.line, byte: best.byte, file: this.fileIdentity() };
  }

  hint(p: SourcePosition): void {
    if (p.file) {
      const now = this.fileIdentity();
      if (now.size !== p.file.size || now.head !== p.file.head || now.tail !== p.file.tail) {
        const how = now.size !== p.file.size ? `it has ${now.size} bytes, the checkpoint's file had ${p.file.size}` : 'it has the same size but other contents';
        throw new Error(`file "${this.name}" is not the file the checkpoint read (${how}): give the source the file it read to resume, or run the pipeline again from the start`);
      }
    }
    if (!(p.byte >= 0 && p.byte <= this.bytes.size && p.line >= 0)) return;
    if (this.points.some((q) => q.line === p.line)) return;
    this.points.push({ line: p.line, byte: p.byte });
    this.points.sort((a, b) => a.line - b.line);
  }

  /** Restarts reading at the remembered block start nearest before line `i`. */
  private jumpTo(i: number): void {
    const p = this.position(i) ?? { line: 0, byte: 0 };
    this.first = p.line;
    this.lines = [];
    this.nextByte = p.byte;
    this.ended = p.byte >= this.bytes.size;
  }

  /** Reads the next block; the lines before it are dropped (readers only go forward, except by a seek). */
  private load(): void {
    const start = this.nextByte;
    const size = this.bytes.size;
    let want = this.blockBytes;
    let buf: Uint8Array;
    let cut: number;
    for (;;) {
      buf = this.bytes.read(start, Math.min(size, start + want));
      const atEnd = start + buf.length >= size;
      cut = lastBreak(buf, atEnd);
      if (atEnd && cut < buf.length) cut = buf.length;
      if (cut > 0 || buf.length === 0) break;
      want *= 2; // a line longer than a block: read more until it ends
    }
    const decoder = new TextDecoder('utf-8', { ignoreBOM: start !== 0 });
    const text = decoder.decode(buf.subarray(0, cut));
    const got = text.split(LINE_BREAK);
    if (got[got.length - 1] === '') got.pop();
    this.first += this.lines.length;
    this.lines = got;
    this.hint({ line: this.first, byte: start });
    this.nextByte = start + cut;
    if (this.nextByte >= size || buf.length === 0) this.ended = true;
  }
}

/** The lines of an input given to a run, whether it is held in memory or read from bytes in blocks. */
export function inputLines(input: { lines: readonly string[] } | ByteInput | undefined): LineSource {
  return !input ? arrayLines([]) : 'bytes' in input ? new StreamedLines(input.bytes, BLOCK_BYTES, input.name) : arrayLines(input.lines);
}

/** Size and FNV-1a hashes of the first and the last `span` bytes (64 KB, or a block if smaller: see FileIdentity). */
export function fileIdentity(bytes: ByteSource, span = IDENTITY_BYTES): FileIdentity {
  const size = bytes.size;
  return { size, head: fnv1a(bytes.read(0, Math.min(size, span))), tail: fnv1a(bytes.read(Math.max(0, size - span), size)) };
}

function fnv1a(buf: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < buf.length; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}
