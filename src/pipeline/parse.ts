import { safeJsonParse } from '../core/source.ts';
import type { Problem } from './kindSpec.ts';

export type ParseResult = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** Parses document text without letting `__proto__` or `constructor` keys reach any prototype. */
export function parseDocumentText(text: string): ParseResult {
  const clean = text.replace(/^\uFEFF/, '');
  try {
    return { ok: true, value: safeJsonParse(clean) };
  } catch (e) {
    // Engines word JSON errors differently and not all give a position, so find it ourselves.
    const found = locateJsonError(clean);
    const why = found?.message ?? (e as Error).message.replace(/ in JSON at position \d+.*$/, '');
    const where = found ? ` at line ${found.line}, column ${found.column}` : '';
    return { ok: false, problem: { target: null, targetType: 'document', field: '', message: `not valid JSON${where}: ${why}`, code: 'bad-json' } };
  }
}

export interface JsonErrorPlace {
  line: number;
  column: number;
  message: string;
}

class Stop {
  constructor(
    readonly at: number,
    readonly message: string,
  ) {}
}

/** Scans JSON text and returns its first syntax error with a 1-based line and column, or null when it is valid. */
export function locateJsonError(text: string): JsonErrorPlace | null {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new Stop(at, at >= text.length ? 'the text ends too early; a bracket or quote is left open' : message);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (c: string, what: string) => (text[i] === c ? i++ : fail(what));
  const string = () => {
    i++;
    while (text[i] !== '"') {
      if (i >= text.length) fail('');
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('a line break or control character inside a string; write it as \\n or close the quote first');
      if (text[i] === '\\') {
        const esc = text[i + 1];
        if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else fail('a bad escape in a string; use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX', i);
      } else i++;
    }
    i++;
  };
  const value = (depth: number): void => {
    if (depth > 512) fail('the document is nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    const num = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (num && num[0] !== '-') {
      i += num[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === "'") fail('strings need double quotes (") in JSON, not single quotes');
    fail(`expected a value ({, [, a "string", a number, true, false or null) but found ${JSON.stringify(c)}`);
  };
  const object = (depth: number) => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] === '}') fail('a comma before "}"; remove the trailing comma');
      if (text[i] !== '"') fail(`expected a field name in double quotes but found ${JSON.stringify(text[i])}`);
      string();
      ws();
      expect(':', 'expected ":" after the field name');
      value(depth + 1);
      ws();
      if (text[i] === '}') return void i++;
      expect(',', `expected "," or "}" after a field but found ${JSON.stringify(text[i])}; is a comma missing?`);
    }
  };
  const array = (depth: number) => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      ws();
      if (text[i] === ']') fail('a comma before "]"; remove the trailing comma');
      value(depth + 1);
      ws();
      if (text[i] === ']') return void i++;
      expect(',', `expected "," or "]" after a list entry but found ${JSON.stringify(text[i])}; is a comma missing?`);
    }
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail('unexpected text after the end of the document');
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) return null;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    return { line, column: e.at - before.lastIndexOf('\n'), message: e.message };
  }
}
