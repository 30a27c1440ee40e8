import type { KindSpec } from '../kindSpec.ts';
import { inputOf } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { assignmentsSchema, typeOfExpr } from './map.ts';
import { compileExpr } from '../../expr/index.ts';
import { exprDerivation, fromView } from '../lineage/derive.ts';

export interface ProjectParams {
  fields: { name: string; expr: string }[];
}

/** The output name a projected input field keeps, when it is projected as a bare reference. */
export function renamedTo(fields: ProjectParams['fields'], input: string): string | null {
  for (const f of fields) {
    try {
      const e = compileExpr(f.expr);
      if (e.fields.length === 1 && e.fields[0] === input && e.toSql() === `\`${input}\``) return f.name;
    } catch {
      /* reported by validation */
    }
  }
  return null;
}

export const projectSpec: KindSpec<ProjectParams> = {
  kind: 'project',
  group: 'stateless',
  title: 'Project',
  icon: '⇉',
  summary: 'Keeps, renames and computes columns, like SELECT.',
  semantics:
    'Each output record has exactly the listed fields, each computed by a SQL expression over the input record (a bare field name copies it). The changelog kind and event time pass through. The stream keeps its event-time attribute only if the time field is projected as a bare reference.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'The projected records.' }],
  params: {
    type: 'object',
    properties: { fields: assignmentsSchema },
    required: ['fields'],
    additionalProperties: false,
  },
  defaults: { fields: [{ name: 'id', expr: 'id' }] },
  example: { fields: [{ name: 'store', expr: 'store_id' }, { name: 'amount_eur', expr: 'ROUND(amount * 0.92, 2)' }] },
  stateful: false,
  lineage: ({ params, outputs }) => ({ out: fromView(outputs.out, {}, Object.fromEntries((params.fields ?? []).map((f) => [f.name, exprDerivation(f.expr)]))) }),
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const fields = Object.fromEntries((params.fields ?? []).map((f) => [f.name, typeOfExpr(f.expr, input.fields)]));
    const rename = (names: string[] | null) => {
      if (!names) return null;
      const out = names.map((n) => renamedTo(params.fields ?? [], n));
      return out.every((n) => n !== null) ? (out as string[]) : null;
    };
    return {
      outputs: {
        out: {
          fields,
          eventTime: input.eventTime ? renamedTo(params.fields ?? [], input.eventTime) : null,
          keyedBy: rename(input.keyedBy),
          changelog: input.changelog,
          uniqueKey: rename(input.uniqueKey),
          ...(input.unpairedUpdates ? { unpairedUpdates: true as const } : {}),
        },
      },
      problems: (params.fields ?? []).flatMap((f, i) => exprProblems(f.expr, input, `params.fields[${i}].expr`)),
    };
  },
};
