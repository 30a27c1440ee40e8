import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { codeParam, exprParam, inputOf, schemaParam } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { compileExpr } from '../../expr/index.ts';
import { byUserCode, exprDerivation, fromView, windowedView } from '../lineage/derive.ts';

export interface MapParams {
  /** Expression mode: set (add or overwrite) fields. */
  set?: { name: string; expr: string }[];
  /** Code mode: `(row) => newRow`. */
  code?: string;
  /** Declares the output fields of `code`, for validation and exports. */
  outputSchema?: Record<string, FieldType>;
}

export const assignmentsSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, expr: exprParam('SQL expression over the input fields.') },
    required: ['name', 'expr'],
    additionalProperties: false,
  },
};

export function typeOfExpr(expr: string, fields: Record<string, FieldType> | null): FieldType {
  try {
    return compileExpr(expr).typeOf(fields) ?? 'json';
  } catch {
    return 'json';
  }
}

/**
 * The statement a stub throws for a function still to be written (a CREATE FUNCTION class the
 * import cannot load). Validation finds unwritten stubs by this text, so a pipeline holding one
 * is a problem on its node before it runs, not only dead letters after.
 */
export const unwrittenStub = (fn: string): string => `throw new Error('${fn} is not written yet: fill in the code of this map node');`;

export function unwrittenFunctions(code: string): string[] {
  return [...code.matchAll(/throw new Error\('([A-Za-z_][A-Za-z0-9_]*) is not written yet: fill in the code of this map node'\)/g)].map((m) => m[1]);
}

export const mapSpec: KindSpec<MapParams> = {
  kind: 'map',
  group: 'stateless',
  title: 'Map',
  icon: 'ƒ',
  summary: 'Transforms each record into one new record.',
  semantics:
    'For each record, either sets the fields listed in `set` (each a SQL expression over the input record; other fields pass through), or calls `code`, a JS/TS function `(row) => row` whose result must be an object. The changelog kind and event time pass through. A function that throws or returns a non-object sends the record to the dead-letter output.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'One record per input record.' }],
  params: {
    type: 'object',
    properties: { set: assignmentsSchema, code: codeParam('JS/TS function `(row) => ({ ...row, total: row.price * row.qty })`.'), outputSchema: schemaParam },
    oneOf: [{ required: ['set'] }, { required: ['code'] }],
    additionalProperties: false,
  },
  defaults: { code: '(row) => ({ ...row })' },
  example: { set: [{ name: 'total', expr: 'price * qty' }] },
  stateful: false,
  codeParams: ['code'],
  lineage: (a) => {
    if (!a.params.set) return byUserCode(a);
    const own = Object.fromEntries(a.params.set.map((s) => [s.name, exprDerivation(s.expr)]));
    return { out: fromView(a.outputs.out, windowedView(undefined, a.inputs.in?.[0], 'in'), own) };
  },
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    if (params.set) {
      const fields = input.fields ? { ...input.fields } : null;
      if (fields) for (const a of params.set) fields[a.name] = typeOfExpr(a.expr, input.fields);
      return {
        outputs: { out: { ...input, fields } },
        problems: params.set.flatMap((a, i) => exprProblems(a.expr, input, `params.set[${i}].expr`)),
      };
    }
    const unwritten = typeof params.code === 'string' ? unwrittenFunctions(params.code) : [];
    return {
      outputs: { out: { ...input, fields: params.outputSchema ?? null } },
      problems: unwritten.map((fn) => ({
        field: 'params.code',
        message: `${fn} is not written yet: its stub throws on every record. Write ${fn} in this node's code (it came from CREATE FUNCTION, a Java/Scala class Weir cannot load)`,
        code: 'unwritten-function',
      })),
    };
  },
};
