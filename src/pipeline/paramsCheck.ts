import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema, KindSpec } from './kindSpec.ts';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
ajv.addVocabulary(['x-weir-code', 'x-weir-expr', 'x-weir-unit']);
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

/** Turns ajv errors into one plain sentence each, naming the param. */
export function describeErrors(prefix: string, errors: ErrorObject[] | null | undefined): ParamProblem[] {
  const out: ParamProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // The alternatives of a oneOf report their own misses; the oneOf error says it better.
    if (e.schemaPath.includes('/oneOf/')) continue;
    let p: ParamProblem;
    const at = fieldPath(prefix, e.instancePath);
    switch (e.keyword) {
      case 'required':
        p = { field: `${at}.${(e.params as { missingProperty: string }).missingProperty}`, message: `missing required field "${(e.params as { missingProperty: string }).missingProperty}"`, code: 'missing-param' };
        break;
      case 'additionalProperties':
        p = { field: `${at}.${(e.params as { additionalProperty: string }).additionalProperty}`, message: `unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"; remove it or check its spelling`, code: 'extra-param' };
        break;
      case 'type':
        p = { field: at, message: `must be ${(e.params as { type: string }).type}`, code: 'bad-param-type' };
        break;
      case 'enum':
        p = { field: at, message: `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`, code: 'bad-param-value' };
        break;
      case 'oneOf':
        p = { field: at, message: 'set exactly one of the alternative fields (for example `where` or `code`, not both and not neither)', code: 'bad-param-choice' };
        break;
      case 'if':
        continue;
      default:
        p = { field: at, message: e.message ?? 'is not valid', code: 'bad-param-value' };
    }
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
