/**
 * The syntax errors of a script as the import reports them: one per statement, worded with the
 * form Flink reads where a common slip is known.
 *
 * One per statement because ANTLR goes on after the first error by guessing, and what it finds
 * then is mostly its own guesswork: a reserved word used as an alias gave five errors, four of
 * them at tokens before the real one. Flink's parser, too, stops at the first.
 */
import type { SyntaxProblem } from '../../export/flinkSql/verify/parseTree.ts';
import { parseFlinkSql } from '../../export/flinkSql/verify/parseTree.ts';

export interface SyntaxReport {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  construct: string;
  message: string;
}

/**
 * Words that shape a statement. Quoted, one can still parse (`SELECT a, \`FROM\` t` is a
 * column aliased t), but nobody who wrote it meant a name.
 */
const CLAUSE_WORDS = new Set(
  'SELECT FROM WHERE GROUP BY HAVING ORDER LIMIT JOIN ON USING UNION INTERSECT EXCEPT INSERT INTO VALUES WITH AS AND OR NOT IN IS CASE WHEN THEN ELSE END LEFT RIGHT FULL INNER OUTER CROSS NATURAL LATERAL OVER PARTITION WINDOW TABLE CREATE VIEW DISTINCT ALL SET'.split(' '),
);

/** Re-parses spent on finding reserved words, at most, in one script (only a failing script pays them). */
const RESERVED_PROBES = 12;

export function syntaxProblems(text: string, errors: readonly SyntaxProblem[]): SyntaxReport[] {
  const starts = lineStarts(text);
  const ends = statementEnds(text);
  const at = (e: SyntaxProblem) => starts[e.line - 1] + e.column - 1;
  const out: SyntaxReport[] = [];
  const seen = new Set<number>();
  const probes = { left: RESERVED_PROBES };
  for (const e of errors) {
    const offset = at(e);
    const statement = statementOf(ends, offset);
    if (seen.has(statement)) continue;
    seen.add(statement);
    const reserved = reservedWords(text, offset, statement, probes);
    if (reserved.length) {
      for (const r of reserved) out.push(reservedWordProblem(starts, r.offset, r.word));
      continue;
    }
    out.push({ line: e.line, column: e.column, endLine: e.endLine, endColumn: e.endColumn, ...hint(text, offset, e.message) });
  }
  return out;
}

/** A known slip in the statement up to the error, with the form Flink reads. */
function hint(text: string, offset: number, message: string): { construct: string; message: string } {
  const statement = text.slice(text.lastIndexOf(';', offset - 1) + 1, offset);
  if (/^'insert'/i.test(message) && /^\s*(--[^\n]*\n\s*)*WITH\b/i.test(statement)) {
    return { construct: 'WITH … INSERT INTO', message: 'Flink reads the CTEs after the INSERT: INSERT INTO t WITH name AS (SELECT …) SELECT … FROM name' };
  }
  const set = /^\s*(?:--[^\n]*\n\s*)*SET\s+([^'\s=]+)\s*=?\s*([^;]*)$/i.exec(text.slice(text.lastIndexOf(';', offset - 1) + 1, text.indexOf(';', offset) < 0 ? text.length : text.indexOf(';', offset)));
  if (set) {
    const value = set[2].trim().replace(/^'|'$/g, '');
    return { construct: 'SET', message: `write the key and the value in quotes, as Flink's SQL client reads them: SET '${set[1]}' = '${value}'` };
  }
  return { construct: 'syntax', message };
}

/**
 * The reserved words used as names in this statement, starting with the one at `offset`: a word
 * is one when writing it in backticks moves the statement's first error past it (or removes it).
 * Deciding by the parse, not by a list, keeps a misplaced keyword (`SELECT a, FROM t`) from being
 * called a name.
 */
function reservedWords(text: string, offset: number, statement: number, probes: { left: number }): { offset: number; word: string }[] {
  const found: { offset: number; word: string }[] = [];
  let shift = 0;
  for (;;) {
    // The word at the error, or the one just before it: ANTLR may stop at the token after a
    // reserved alias (`SELECT a, rank, b` fails at the comma).
    let hit: { at: number; word: string; quoted: string; next: number | null } | null = null;
    for (const at of [offset, wordBefore(text, offset)]) {
      if (at < 0 || probes.left <= 0) continue;
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))?.[0];
      if (!word || CLAUSE_WORDS.has(word.toUpperCase())) continue;
      probes.left--;
      const quoted = `${text.slice(0, at)}\`${word}\`${text.slice(at + word.length)}`;
      const next = firstErrorIn(quoted, statement);
      if (next === null || next > Math.max(offset, at + word.length) + 2) {
        hit = { at, word, quoted, next };
        break;
      }
    }
    if (!hit) return found;
    found.push({ offset: hit.at - shift, word: hit.word });
    if (hit.next === null) return found;
    shift += 2;
    text = hit.quoted;
    offset = hit.next;
  }
}

/** The start of the word that ends just before `offset` (spaces between), or -1. */
function wordBefore(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  const end = i + 1;
  while (i >= 0 && /[A-Za-z0-9_]/.test(text[i])) i--;
  return end > i + 1 && /[A-Za-z_]/.test(text[i + 1]) && text[i] !== '`' ? i + 1 : -1;
}

/**
 * The offset of the first syntax error inside statement `statement` of `text`, or null. Only that
 * statement is parsed again: the designer reads diagnostics on every keystroke.
 */
function firstErrorIn(text: string, statement: number): number | null {
  const ends = statementEnds(text);
  const start = statement === 0 ? 0 : ends[statement - 1] + 1;
  const end = statement < ends.length ? ends[statement] + 1 : text.length;
  const piece = text.slice(start, end);
  const { errors } = parseFlinkSql(piece);
  if (!errors.length) return null;
  const starts = lineStarts(piece);
  return start + starts[errors[0].line - 1] + errors[0].column - 1;
}

function reservedWordProblem(starts: number[], offset: number, word: string): SyntaxReport {
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
  const column = offset - starts[line] + 1;
  return {
    line: line + 1,
    column,
    endLine: line + 1,
    endColumn: column + word.length,
    construct: 'reserved word',
    message: `${word} is a reserved word in Flink SQL: to use it as a name, write it in backticks as Flink requires (\`${word}\`), or choose another name`,
  };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Offsets of the semicolons that end statements: not inside quotes, backticks or comments. */
function statementEnds(text: string): number[] {
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      const close = text.indexOf(c, i + 1);
      i = close < 0 ? text.length : close;
    } else if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    } else if (c === ';') ends.push(i);
  }
  return ends;
}

/** Which statement (0-based) holds `offset`. */
function statementOf(ends: readonly number[], offset: number): number {
  let n = 0;
  while (n < ends.length && ends[n] < offset) n++;
  return n;
}
