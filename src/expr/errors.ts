/** Where an offset sits in the source, 1-based, counting `\n` as the line break. */
export interface Position {
  line: number;
  column: number;
}

export function positionAt(source: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(offset, source.length);
  for (let i = 0; i < stop; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * A compile error. The message ends with "(line L, column C)" so that it is useful even when shown
 * without the structured fields, e.g. in a toast or a CLI log.
 */
export class ExprError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** The message without the position suffix, for UIs that render the position themselves. */
  readonly detail: string;

  constructor(detail: string, source: string, offset: number) {
    const { line, column } = positionAt(source, offset);
    super(`${detail} (line ${line}, column ${column})`);
    this.name = 'ExprError';
    this.detail = detail;
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/**
 * Describes where something was opened relative to the error position. On the same line the column
 * alone is enough and reads better; across lines the line is needed too.
 */
export function describeOpening(source: string, openedAt: number, errorAt: number): string {
  const open = positionAt(source, openedAt);
  const here = positionAt(source, errorAt);
  return open.line === here.line ? `column ${open.column}` : `line ${open.line}, column ${open.column}`;
}
