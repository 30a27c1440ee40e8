import { safeJsonParse } from '../engine/source.ts';
import type { Problem } from './kindSpec.ts';

export type ParseResult = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** Parses document text without letting `__proto__` or `constructor` keys reach any prototype. */
export function parseDocumentText(text: string): ParseResult {
  try {
    return { ok: true, value: safeJsonParse(text) };
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    let where = '';
    if (pos) {
      const upTo = text.slice(0, Number(pos[1]));
      const line = upTo.split('\n').length;
      const column = Number(pos[1]) - upTo.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    }
    return {
      ok: false,
      problem: { target: null, targetType: 'document', field: '', message: `not valid JSON${where}: ${msg.replace(/ in JSON at position \d+.*$/, '')}`, code: 'bad-json' },
    };
  }
}
