import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema, KindSpec } from './kindSpec.ts';

// verbose: errors carry the offending value and schema, so messages can quote them.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
ajv.addVocabulary(['x-weir-code', 'x-weir-expr', 'x-weir-unit', 'x-weir-visible-when', 'x-weir-keys-from', 'x-weir-for-types']);
const cache = new Map<string, ValidateFunction>();

export function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
  let v = cache.get(key);
  if (!v) cache.set(key, (v = ajv.compile(schema)));
  return v;
}

/** `/aggregates/0/fn` → `params.aggregates[0].fn` */
export function fieldPath(prefix: string, instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : `${acc}.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`), prefix);
}

export interface ParamProblem {
  field: string;
  message: string;
  code: string;
}

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A value as a reader would write it: `"3"`, `5`, `an object`. */
function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (isObj(v)) return 'an object';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return JSON.stringify(v) ?? String(v);
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a text string',
  boolean: 'true or false',
  array: 'a list [ … ]',
  object: 'an object { … }',
  null: 'null',
};

/** The description a schema gives a property, shortened to a phrase. */
function describedAs(parent: unknown, name: string): string {
  const d = isObj(parent) && isObj(parent.properties) && isObj(parent.properties[name]) ? parent.properties[name].description : undefined;
  return typeof d === 'string' ? ` (${d.replace(/\.$/, '').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())})` : '';
}

/** The alternatives of a oneOf, by the fields each requires: `where`, `code`. */
function alternatives(schema: unknown): string {
  const names = Array.isArray(schema) ? schema.map((s) => (isObj(s) && Array.isArray(s.required) ? s.required.map((r) => `"${r}"`).join(' + ') : '?')) : [];
  return names.length ? names.join(' or ') : 'the alternatives';
}

function describeOne(at: string, e: ErrorObject): ParamProblem | null {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const m = String(p.missingProperty);
      return { field: `${at}.${m}`, message: `missing required field "${m}"${describedAs(e.parentSchema, m)}`, code: 'missing-param' };
    }
    case 'additionalProperties': {
      const extra = String(p.additionalProperty);
      const known = isObj(e.parentSchema) && isObj(e.parentSchema.properties) ? Object.keys(e.parentSchema.properties) : [];
      return { field: `${at}.${extra}`, message: `unknown field "${extra}"; remove it or check its spelling${known.length ? ` (known: ${known.join(', ')})` : ''}`, code: 'extra-param' };
    }
    case 'type': {
      const want = String(p.type).split(',').map((t) => TYPE_NAMES[t] ?? t).join(' or ');
      return { field: at, message: `must be ${want}, not ${describeValue(e.data)}`, code: 'bad-param-type' };
    }
    case 'enum':
      return { field: at, message: `${describeValue(e.data)} is not allowed; use one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`, code: 'bad-param-value' };
    case 'oneOf': {
      const both = Array.isArray(p.passingSchemas);
      const names = alternatives(e.schema);
      return { field: at, message: both ? `set only one of ${names}, not several; remove the others` : `set one of ${names}`, code: 'bad-param-choice' };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const word = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'greater than', exclusiveMaximum: 'less than' }[e.keyword];
      return { field: at, message: `is ${describeValue(e.data)}; it must be ${word} ${String(p.limit)}`, code: 'bad-param-value' };
    }
    case 'minItems':
      return { field: at, message: `needs at least ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}`, code: 'bad-param-value' };
    case 'minLength':
      return { field: at, message: p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`, code: 'bad-param-value' };
    case 'if':
      return null;
    default:
      return { field: at, message: e.message ?? 'is not valid', code: 'bad-param-value' };
  }
}

/** Turns ajv errors into one plain sentence each, naming the param and saying what would be right. */
export function describeErrors(prefix: string, errors: ErrorObject[] | null | undefined): ParamProblem[] {
  const out: ParamProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // The alternatives of a oneOf report their own misses; the oneOf error says it better.
    if (e.schemaPath.includes('/oneOf/')) continue;
    const p = describeOne(fieldPath(prefix, e.instancePath), e);
    if (!p) continue;
    const id = `${p.field}|${p.code}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(p);
    }
  }
  return out;
}

export function checkParams(spec: KindSpec, params: unknown): ParamProblem[] {
  const v = validatorFor(`kind:${spec.kind}`, spec.params);
  return v(params) ? [] : describeErrors('params', v.errors);
}

/** Every user-code string in params, wherever the schema marks one with `x-weir-code` (also inside lists and objects). */
export function codeStrings(schema: unknown, value: unknown, path = 'params'): { field: string; code: string }[] {
  if (!isObj(schema)) return [];
  if (schema['x-weir-code'] === true) return typeof value === 'string' ? [{ field: path, code: value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => codeStrings(schema.items, v, `${path}[${i}]`));
  if (!isObj(value) || !isObj(schema.properties)) return [];
  const props = schema.properties;
  return Object.keys(props).flatMap((k) => (Object.hasOwn(value, k) ? codeStrings(props[k], value[k], `${path}.${k}`) : []));
}
