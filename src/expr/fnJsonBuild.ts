/**
 * Flink's JSON constructors, JSON_OBJECT(KEY k VALUE v, … [NULL | ABSENT ON NULL]) and
 * JSON_ARRAY(v, … [NULL | ABSENT ON NULL]). They return JSON text. A value that is itself a
 * JSON_OBJECT or JSON_ARRAY call is nested as JSON, not as a quoted string, as in Flink; any other
 * string is a JSON string. The defaults are Flink's: NULL ON NULL for objects, ABSENT ON NULL for arrays.
 */
import type { ExprNode } from './ast.ts';
import type { Evaluator, FunctionDef } from './functionKit.ts';
import { always } from './functionKit.ts';

export const ON_NULL_WORDS = ['NULL', 'ABSENT'] as const;
export const JSON_CONSTRUCTORS: ReadonlySet<string> = new Set(['JSON_OBJECT', 'JSON_ARRAY']);

const isConstructor = (n: ExprNode | undefined): boolean => n?.kind === 'call' && JSON_CONSTRUCTORS.has(n.name);

/** One value as JSON text; `raw` for the text a nested constructor returned. */
export function valueJson(v: unknown, raw: boolean): string {
  if (raw && typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  return JSON.stringify(v) ?? 'null';
}

const rawFlags = (nodes: readonly ExprNode[] | undefined, count: number): boolean[] =>
  Array.from({ length: count }, (_, i) => isConstructor(nodes?.[i]));

export const JSON_BUILD_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  // args: key, value, key, value …; the keys are string literals (the parser checks).
  JSON_OBJECT: {
    min: 0,
    max: Infinity,
    keywords: ON_NULL_WORDS,
    compile: (args, onNull, nodes) => {
      const raw = rawFlags(nodes, args.length);
      const absent = onNull === 'ABSENT';
      return (row) => {
        let out = '{';
        for (let i = 0; i + 1 < args.length; i += 2) {
          const v = args[i + 1](row);
          if ((v === null || v === undefined) && absent) continue;
          if (out.length > 1) out += ',';
          out += JSON.stringify(String(args[i](row))) + ':' + valueJson(v, raw[i + 1]);
        }
        return out + '}';
      };
    },
    type: always('string'),
  },
  JSON_ARRAY: {
    min: 0,
    max: Infinity,
    keywords: ON_NULL_WORDS,
    compile: (args: readonly Evaluator[], onNull, nodes) => {
      const raw = rawFlags(nodes, args.length);
      const keepNull = onNull === 'NULL';
      return (row) => {
        let out = '[';
        for (let i = 0; i < args.length; i++) {
          const v = args[i](row);
          if ((v === null || v === undefined) && !keepNull) continue;
          if (out.length > 1) out += ',';
          out += valueJson(v, raw[i]);
        }
        return out + ']';
      };
    },
    type: always('string'),
  },
};
