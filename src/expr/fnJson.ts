/**
 * Flink's JSON built-ins over text (or a json field, already parsed). Paths are SQL/JSON paths in
 * lax mode: `$`, `.name`, `['name']`, `[n]`. As Flink's defaults: NULL ON EMPTY and NULL ON ERROR for
 * JSON_VALUE/JSON_QUERY, FALSE ON ERROR for JSON_EXISTS.
 */
import type { FunctionDef } from './functionKit.ts';
import { always } from './functionKit.ts';
import { isNull, toStr } from './values.ts';

type Step = string | number;
const MISSING = Symbol('missing');
const NOT_JSON = Symbol('not json');

const pathCache = new Map<string, Step[] | null>();

/** `$.a.b[0]['c d']` → ['a', 'b', 0, 'c d']; null when it is not such a path. */
export function parseJsonPath(path: string): Step[] | null {
  const hit = pathCache.get(path);
  if (hit !== undefined) return hit;
  let rest = path.trim().replace(/^(lax|strict)\s+/i, '');
  let steps: Step[] | null = null;
  if (rest.startsWith('$')) {
    rest = rest.slice(1);
    steps = [];
    const re = /^(?:\.([A-Za-z_$][\w$]*)|\.?\[\s*(\d+)\s*\]|\.?\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\.?\[\s*"((?:[^"\\]|\\.)*)"\s*\])/;
    while (rest.length && steps) {
      const m = re.exec(rest);
      if (!m) steps = null;
      else {
        steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4])));
        rest = rest.slice(m[0].length);
      }
    }
  }
  if (pathCache.size > 256) pathCache.clear();
  pathCache.set(path, steps);
  return steps;
}

let lastText: string | null = null;
let lastParsed: unknown = NOT_JSON;

/** Text is parsed (the last one remembered, since one row often asks several paths of it); other values are used as they are. */
function jsonOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v === lastText) return lastParsed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    parsed = NOT_JSON;
  }
  lastText = v;
  lastParsed = parsed;
  return parsed;
}

/** A json value as it is, JSON text parsed; undefined when text does not parse. */
export function jsonValue(v: unknown): unknown {
  const doc = jsonOf(v);
  return doc === NOT_JSON ? undefined : doc;
}

function walk(doc: unknown, steps: readonly Step[]): unknown {
  let cur = doc;
  for (const s of steps) {
    if (cur === null || typeof cur !== 'object') return MISSING;
    if (typeof s === 'number' ? !Array.isArray(cur) : Array.isArray(cur)) return MISSING;
    if (!Object.hasOwn(cur, s)) return MISSING;
    cur = (cur as Record<string | number, unknown>)[s];
  }
  return cur;
}

/** The value at the path, MISSING when it is not there, NOT_JSON when the input does not parse. */
function lookup(input: unknown, pathText: unknown): unknown {
  const path = toStr(pathText);
  const steps = path === null ? null : parseJsonPath(path);
  if (!steps) return NOT_JSON;
  const doc = jsonOf(input);
  return doc === NOT_JSON ? NOT_JSON : walk(doc, steps);
}

/** JSON_VALUE/QUERY/EXISTS(input, path): NULL input is NULL; otherwise `pick` gets the looked-up value. */
function atPath(result: 'string' | 'boolean', pick: (v: unknown) => unknown): FunctionDef {
  return {
    min: 2,
    max: 2,
    compile: ([a, p]) => (row) => {
      const input = a(row);
      return isNull(input) ? null : pick(lookup(input, p(row)));
    },
    type: always(result),
  };
}

export const IS_JSON_KINDS = ['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'] as const;

export const JSON_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  // A scalar at the path, as STRING (RETURNING … is a CAST around it); objects, arrays and JSON null are NULL.
  JSON_VALUE: atPath('string', (v) => (v === MISSING || v === NOT_JSON || v === null || typeof v === 'object' ? null : typeof v === 'string' ? v : String(v))),
  // An object or array at the path, as JSON text (WITHOUT WRAPPER); a scalar is NULL.
  JSON_QUERY: atPath('string', (v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : null)),
  JSON_EXISTS: atPath('boolean', (v) => v !== MISSING && v !== NOT_JSON),
  // `s IS JSON [VALUE|SCALAR|ARRAY|OBJECT]`: NULL is not JSON.
  IS_JSON: {
    min: 1,
    max: 1,
    keywords: IS_JSON_KINDS,
    syntaxOnly: true,
    compile: ([a], kind) => (row) => {
      const v = a(row);
      if (typeof v !== 'string') return false;
      const doc = jsonOf(v);
      if (doc === NOT_JSON) return false;
      const isObj = doc !== null && typeof doc === 'object';
      if (kind === 'SCALAR') return !isObj;
      if (kind === 'ARRAY') return Array.isArray(doc);
      if (kind === 'OBJECT') return isObj && !Array.isArray(doc);
      return true;
    },
    type: always('boolean'),
  },
  JSON_STRING: {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const v = a(row);
      return isNull(v) ? null : JSON.stringify(v);
    },
    type: always('string'),
  },
};
