import type { RawRecord, SourcePosition, SourceReader } from '../../core/source.ts';
import { safeJsonParse, unparsedReason } from '../../core/source.ts';
import type { LineSource } from '../../core/lineSource.ts';
import { arrayLines } from '../../core/lineSource.ts';

/**
 * Reads the elements of one JSON array (`[{…}, {…}]`) spread over any number of lines, one
 * element at a time: a scanner finds where each top-level element ends, so a huge array is
 * never parsed as a whole, and each bad element keeps its line. Offsets count elements.
 */
export class JsonArrayReader implements SourceReader {
  private line = 0;
  private col = 0;
  private count = 0;
  private finished = false;
  private started = false;

  private readonly lines: LineSource;

  /** Offsets count elements, so a seek reads the array again from its start (block by block for a large file). */
  constructor(input: readonly string[] | LineSource) {
    this.lines = Array.isArray(input) ? arrayLines(input) : (input as LineSource);
  }

  read(max: number): RawRecord[] {
    const out: RawRecord[] = [];
    while (!this.finished && out.length < max) {
      const r = this.next();
      if (r) {
        this.count++;
        out.push(r);
      }
    }
    return out;
  }

  done(): boolean {
    return this.finished;
  }

  offset(): number {
    return this.count;
  }

  /** The file's start: a seek reads from there anyway, but the checkpoint keeps which file it read. */
  position(): SourcePosition | undefined {
    return this.lines.position?.(0);
  }

  seek(o: number, at?: SourcePosition): void {
    if (at) this.lines.hint?.(at);
    this.line = 0;
    this.col = 0;
    this.count = 0;
    this.finished = false;
    this.started = false;
    while (this.count < o && !this.finished) if (this.next()) this.count++;
  }

  /** The next non-space character, or null at the end of the text. */
  private peek(): string | null {
    for (let l = this.lines.line(this.line); l !== undefined; l = this.lines.line(this.line)) {
      while (this.col < l.length && /\s/.test(l[this.col])) this.col++;
      if (this.col < l.length) return l[this.col];
      this.line++;
      this.col = 0;
    }
    return null;
  }

  private fail(error: string): RawRecord {
    this.finished = true;
    const l = this.lines.line(this.line);
    return { line: l === undefined ? Math.max(1, this.line) : this.line + 1, error, raw: l?.slice(0, 200) ?? '' };
  }

  private next(): RawRecord | null {
    let c = this.peek();
    if (!this.started) {
      this.started = true;
      if (c === null) {
        this.finished = true;
        return null;
      }
      if (c !== '[') return this.fail('a JSON array file must start with [; use JSON Lines for one object per line');
      this.col++;
      c = this.peek();
      if (c === ']') {
        this.finished = true;
        return null;
      }
    }
    if (c === null) return this.fail('the JSON array is not closed with ]');
    const startLine = this.line + 1;
    const text = this.element();
    if (text === null) return this.fail(`the element starting on line ${startLine} is not closed`);
    const after = this.peek();
    if (after === ',') this.col++;
    else if (after === ']') this.finished = true;
    else if (after === null) this.finished = true;
    else return this.fail(`expected , or ] after the element starting on line ${startLine}`);
    try {
      return { value: safeJsonParse(text), raw: text, line: startLine };
    } catch (e) {
      return { raw: text, line: startLine, error: unparsedReason(e) };
    }
  }

  /** The text of one element: up to the , or ] that closes it at depth 0. */
  private element(): string | null {
    let depth = 0;
    let inString = false;
    let text = '';
    for (let l = this.lines.line(this.line); l !== undefined; l = this.lines.line(this.line)) {
      const from = this.col;
      for (; this.col < l.length; this.col++) {
        const c = l[this.col];
        if (inString) {
          if (c === '\\') this.col++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') {
          if (depth === 0) return (text + l.slice(from, this.col)).trim();
          depth--;
        } else if (c === ',' && depth === 0) return (text + l.slice(from, this.col)).trim();
      }
      text += l.slice(from) + '\n';
      this.line++;
      this.col = 0;
    }
    return depth === 0 && !inString && text.trim() ? text : null;
  }
}
