import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import { PROCESS_TYPECHECK_WRAPPER } from '../../pipeline/kinds/process.ts';

/** Global declarations shared by every UDF model. */
export const UDF_LIB_DTS = `/** An aggregate function of your own (fn: "udaf"). */
interface Udaf<ACC = any, IN = any, OUT = any> {
  create(): ACC;
  add(acc: ACC, value: IN): ACC;
  retract?(acc: ACC, value: IN): ACC;
  merge?(a: ACC, b: ACC): ACC;
  get(acc: ACC): OUT;
}
`;

/** Text around the user's code that gives it a contextual type; the editor hides it. */
export interface Wrapper {
  prefix: string;
  suffix: string;
}

const fn = (type: string): Wrapper => ({ prefix: `const __udf: ${type} = (`, suffix: '\n);\nexport {};' });

/**
 * The signature each code param is checked against, by kind and param path. Kinds the
 * table does not know are checked for syntax and obvious type errors only.
 */
export function wrapperFor(kind: string, param: string): Wrapper {
  const p = param.replace(/\[\d+\]/g, '[]');
  if (kind === 'process' && p === 'code') return PROCESS_TYPECHECK_WRAPPER;
  if (kind === 'map' && p === 'code') return fn('(row: Row) => Record<string, unknown>');
  if (kind === 'filter' && p === 'code') return fn('(row: Row) => boolean');
  if (kind === 'flatMap' && p === 'code') return fn('(row: Row) => Record<string, unknown>[]');
  if (kind === 'broadcastProcess' && p === 'code') return fn('(row: Row, rules: Record<string, any>, ctx: any) => Record<string, unknown> | Record<string, unknown>[] | null | undefined');
  if (p.endsWith('aggregates[].code')) return fn('Udaf');
  return fn('any');
}

const tsType = (t: FieldType): string => (t === 'string' ? 'string' : t === 'boolean' ? 'boolean' : t === 'json' ? 'any' : 'number');

/** `type Row = { ... }` from the stream flowing in; unknown streams give an open record. */
export function rowTypeDecl(info: StreamInfo | undefined): string {
  if (!info?.fields) return 'type Row = Record<string, any>;';
  const props = Object.entries(info.fields).map(([k, t]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${tsType(t)}`);
  return `type Row = { ${props.join('; ')} };`;
}

export interface ModelText {
  text: string;
  /** Lines before the user's first line. */
  headLines: number;
  /** Lines after the user's last line. */
  tailLines: number;
  head: string;
  tail: string;
}

/** Lays out a UDF model: hidden head lines, the user's code, hidden tail lines. */
export function modelText(code: string, rowDecl: string, w: Wrapper): ModelText {
  const head = `${rowDecl}\n${w.prefix.replace(/\n+$/, '')}\n`;
  const tail = `\n${w.suffix.replace(/^\n+/, '').replace(/\n+$/, '')}`;
  return { text: head + code + tail, headLines: head.split('\n').length - 1, tailLines: tail.split('\n').length - 1, head, tail };
}

/** The user's code inside a model text, or null when the hidden head or tail was damaged. */
export function userCode(text: string, m: Pick<ModelText, 'head' | 'tail'>): string | null {
  if (!text.startsWith(m.head) || !text.endsWith(m.tail) || text.length < m.head.length + m.tail.length) return null;
  return text.slice(m.head.length, text.length - m.tail.length);
}
