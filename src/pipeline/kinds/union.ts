import type { KindSpec } from '../kindSpec.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { unknownStream } from '../../core/streamInfo.ts';
import type { PortLineage } from '../lineage/types.ts';

export const unionSpec: KindSpec<Record<string, never>> = {
  kind: 'union',
  group: 'stateless',
  title: 'Union',
  icon: '∪',
  summary: 'Merges several streams of the same shape into one (UNION ALL).',
  semantics:
    'Forwards every record of every input unchanged (UNION ALL: no deduplication). Its watermark is the minimum of its inputs\' watermarks, so the merged stream is never ahead of its slowest input. Inputs should have the same fields.',
  inputs: [{ name: 'in', multiple: true, doc: 'Two or more streams.' }],
  outputs: [{ name: 'out', doc: 'All records of all inputs.' }],
  params: { type: 'object', properties: {}, additionalProperties: false },
  defaults: {},
  example: {},
  stateful: false,
  lineage: ({ inputs, outputs }) => {
    const list = inputs.in ?? [];
    const out: PortLineage = {};
    for (const f of Object.keys(outputs.out?.fields ?? {})) {
      const from = list.flatMap((s, edge) => (s.fields && f in s.fields ? [{ port: 'in', edge, column: f }] : []));
      out[f] = { how: 'merge', from, expr: `UNION ALL of ${from.length} inputs` };
    }
    return { out };
  },
  infer: ({ inputLists }) => {
    const list: StreamInfo[] = inputLists.in ?? [];
    const first = list[0] ?? unknownStream();
    const problems = list.slice(1).flatMap((s, i) => {
      if (!s.fields || !first.fields) return [];
      const a = Object.keys(first.fields).sort().join(', ');
      const b = Object.keys(s.fields).sort().join(', ');
      const message = `input ${i + 2} has fields (${b}) but input 1 has (${a}); every input of a Union needs the same fields, so add a Project before it to rename or drop fields`;
      return a === b ? [] : [{ field: `inputs.in[${i + 1}]`, message, code: 'union-mismatch' }];
    });
    return {
      outputs: {
        out: {
          fields: first.fields,
          eventTime: list.every((s) => s.eventTime === first.eventTime) ? first.eventTime : null,
          keyedBy: null,
          changelog: list.some((s) => s.changelog === 'update') ? 'update' : 'append',
          uniqueKey: null,
        },
      },
      problems,
    };
  },
};
