/** Parses a script into statements: SET, CREATE TABLE / TEMPORARY VIEW / TEMPORARY FUNCTION, INSERT, statement sets. */
import type { Token } from './lexer.ts';
import { tokenize } from './lexer.ts';
import { Cursor, stopAt } from './cursor.ts';
import type { Span } from './cursor.ts';
import type { Query } from './query.ts';
import { parseQuery } from './query.ts';
import { ImportError } from './errors.ts';

export interface ColumnDef {
  name: string;
  /** Upper-cased type with its arguments, e.g. `TIMESTAMP_LTZ(3)`; null for a computed column. */
  type: string | null;
  computed: Span | null;
  tok: Token;
}

export type Statement =
  | { kind: 'set'; key: string; value: string; tok: Token }
  | { kind: 'createTable'; name: string; columns: ColumnDef[]; watermark: { column: string; expr: Span } | null; primaryKey: string[] | null; options: Record<string, string>; tok: Token }
  | { kind: 'createFunction'; name: string; className: string; tok: Token }
  | { kind: 'createView'; name: string; query: Query; tok: Token }
  | { kind: 'insert'; target: string; query: Query; tok: Token };

export interface ParsedScript {
  statements: Statement[];
  /** `-- @weir {…}` annotations by the line of the statement they precede; the document's has line 0. */
  annotations: Map<number, Record<string, unknown>>;
  errors: ImportError[];
}

const ANNOTATION = /^ @weir (\{.*\})\s*$/;

function columnType(c: Cursor): string {
  let type = c.name('column type').toUpperCase();
  if (c.acceptOp('(')) {
    const parts: string[] = [];
    do parts.push(c.next().value);
    while (c.acceptOp(','));
    c.expectOp(')', 'column type');
    type += `(${parts.join(', ')})`;
  }
  if (c.isOp('<')) c.fail(`${type} column`, 'nested types are not supported; declare the field as STRING (json)');
  c.acceptWord('NOT', 'NULL') || c.acceptWord('NULL');
  return type;
}

function createTable(c: Cursor, tok: Token): Statement {
  const name = c.name('CREATE TABLE');
  const columns: ColumnDef[] = [];
  let watermark: { column: string; expr: Span } | null = null;
  let primaryKey: string[] | null = null;
  c.expectOp('(', 'CREATE TABLE');
  do {
    const t = c.peek();
    if (c.acceptWord('WATERMARK')) {
      c.expectWord('FOR', 'WATERMARK');
      const column = c.name('WATERMARK');
      c.expectWord('AS', 'WATERMARK');
      watermark = { column, expr: c.span('WATERMARK', stopAt([], [','])) };
    } else if (c.acceptWord('PRIMARY', 'KEY')) {
      c.expectOp('(', 'PRIMARY KEY');
      primaryKey = [];
      do primaryKey.push(c.name('PRIMARY KEY'));
      while (c.acceptOp(','));
      c.expectOp(')', 'PRIMARY KEY');
      c.expectWord('NOT', 'PRIMARY KEY');
      c.expectWord('ENFORCED', 'PRIMARY KEY');
    } else if (t.kind === 'word' && ['CONSTRAINT', 'LIKE', 'PERIOD'].includes(t.upper)) {
      c.fail(`${t.upper} in CREATE TABLE`, 'not supported');
    } else {
      const col = c.name('column');
      if (c.acceptWord('AS')) columns.push({ name: col, type: null, computed: c.span('computed column', stopAt([], [','])), tok: t });
      else if (c.isWord('METADATA', 1) || c.isWord('METADATA')) c.fail('METADATA column', 'metadata columns are not supported');
      else columns.push({ name: col, type: columnType(c), computed: null, tok: t });
    }
  } while (c.acceptOp(','));
  c.expectOp(')', 'CREATE TABLE');
  if (c.isWord('PARTITIONED') || c.isWord('COMMENT')) c.fail(`${c.peek().upper} in CREATE TABLE`, 'not supported');
  const options: Record<string, string> = {};
  c.expectWord('WITH', 'CREATE TABLE');
  c.expectOp('(', 'WITH');
  do {
    const k = c.string('WITH option');
    c.expectOp('=', 'WITH option');
    options[k] = c.string('WITH option');
  } while (c.acceptOp(','));
  c.expectOp(')', 'WITH');
  return { kind: 'createTable', name, columns, watermark, primaryKey, options, tok };
}

function insert(c: Cursor, tok: Token): Statement {
  c.expectWord('INTO', 'INSERT');
  const target = c.name('INSERT INTO');
  if (c.isOp('(')) c.fail('INSERT INTO … (columns)', 'a column list is not supported: select the sink\'s columns in its order');
  return { kind: 'insert', target, query: parseQuery(c), tok };
}

/** One statement from the cursor; a statement set yields its INSERTs. */
function statement(c: Cursor): Statement[] {
  const tok = c.peek();
  if (c.acceptWord('SET')) {
    const key = c.string('SET');
    c.expectOp('=', 'SET');
    return [{ kind: 'set', key, value: c.string('SET'), tok }];
  }
  if (c.acceptWord('CREATE')) {
    const temporary = c.acceptWord('TEMPORARY');
    if (c.acceptWord('TABLE')) {
      if (c.isWord('IF')) c.fail('CREATE TABLE IF NOT EXISTS', 'not supported: the import creates every table');
      return [createTable(c, tok)];
    }
    if (c.acceptWord('VIEW')) {
      const name = c.name('CREATE VIEW');
      c.expectWord('AS', 'CREATE VIEW');
      return [{ kind: 'createView', name, query: parseQuery(c), tok }];
    }
    if (temporary && c.acceptWord('FUNCTION')) {
      const name = c.name('CREATE FUNCTION');
      c.expectWord('AS', 'CREATE FUNCTION');
      const className = c.string('CREATE FUNCTION');
      if (c.acceptWord('LANGUAGE')) c.name('CREATE FUNCTION');
      return [{ kind: 'createFunction', name, className, tok }];
    }
    c.fail(`CREATE ${temporary ? 'TEMPORARY ' : ''}${c.peek().upper || describe(c.peek())}`, 'not supported: the import reads CREATE TABLE, CREATE TEMPORARY VIEW and CREATE TEMPORARY FUNCTION', tok);
  }
  if (c.acceptWord('INSERT')) return [insert(c, tok)];
  if (c.acceptWord('EXECUTE', 'STATEMENT', 'SET')) {
    c.expectWord('BEGIN', 'EXECUTE STATEMENT SET');
    const out: Statement[] = [];
    while (!c.isWord('END')) {
      const t = c.peek();
      c.expectWord('INSERT', 'EXECUTE STATEMENT SET');
      out.push(insert(c, t));
      c.expectOp(';', 'EXECUTE STATEMENT SET');
    }
    c.next();
    return out;
  }
  const word = tok.kind === 'word' ? tok.upper : describe(tok);
  c.fail(word === 'SELECT' ? 'SELECT' : `${word} statement`, word === 'SELECT' ? 'a bare query has nowhere to go: INSERT it INTO a sink table' : 'not supported by the import');
}

const describe = (t: Token): string => (t.kind === 'eof' ? 'end of script' : t.value);

/** Parses statement by statement; a broken statement is reported and skipped to the next `;`. */
export function parseScript(sql: string): ParsedScript {
  const errors: ImportError[] = [];
  const annotations = new Map<number, Record<string, unknown>>();
  let lexed;
  try {
    lexed = tokenize(sql);
  } catch (e) {
    if (e instanceof ImportError) return { statements: [], annotations, errors: [e] };
    throw e;
  }
  const c = new Cursor(lexed.tokens, sql);
  const statements: Statement[] = [];
  const starts: number[] = [];
  while (c.peek().kind !== 'eof') {
    if (c.acceptOp(';')) continue;
    try {
      const got = statement(c);
      if (!c.isOp(';') && c.peek().kind !== 'eof') c.unexpected(got[0].kind === 'set' ? 'SET' : 'statement', "';'");
      for (const s of got) {
        statements.push(s);
        starts.push(s.tok.line);
      }
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      errors.push(e);
      while (c.peek().kind !== 'eof' && !c.isOp(';')) c.next();
    }
  }
  // Each statement's annotation is the last `@weir` comment between the previous statement and it.
  let prev = 0;
  const firstLine = starts[0] ?? Infinity;
  for (const com of lexed.comments) {
    const m = ANNOTATION.exec(com.text);
    if (!m) continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(m[1]);
    } catch {
      errors.push(new ImportError(com.line, 1, '@weir annotation', 'is not valid JSON'));
      continue;
    }
    if (com.line < firstLine && 'pipeline' in value) {
      annotations.set(0, value);
      continue;
    }
    while (prev < starts.length && starts[prev] <= com.line) prev++;
    if (prev < starts.length) annotations.set(starts[prev], value);
  }
  return { statements, annotations, errors };
}

/** The line a statement starts on, to find its annotation. */
export const statementLine = (s: Statement): number => s.tok.line;
