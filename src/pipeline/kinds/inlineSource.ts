import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { changelogParam, sourceCommonProps, sourceStream } from './common.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import { changeRows } from '../../core/changelogDecoder.ts';

export interface InlineSourceParams extends CommonSourceParams {
  rows: Record<string, unknown>[];
}

/** Guesses field types from sample rows when no schema is declared. */
export function guessFields(rows: readonly unknown[]): Record<string, FieldType> | null {
  const fields: Record<string, FieldType> = {};
  for (const r of rows.slice(0, 100)) {
    if (!r || typeof r !== 'object' || Array.isArray(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      if (v === null || v === undefined || k in fields) continue;
      fields[k] = typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : 'json';
    }
  }
  return Object.keys(fields).length ? fields : null;
}

export const inlineSourceSpec: KindSpec<InlineSourceParams> = {
  kind: 'inlineSource',
  group: 'sources',
  title: 'Inline rows',
  icon: '▤',
  summary: 'A fixed list of records typed into the pipeline.',
  semantics:
    'Emits `rows` in order as +I records, then ends. Offsets count rows, so a restore replays exactly the rows after the checkpointed offset. With `eventTime`, each row must carry that field; rows without it go to the dead-letter output. With `changelog`, the rows are changelog records (Debezium, changelog-json or upserts) and the output is an updating table keyed by `changelog.primaryKey`; see the JSON Lines file source for the formats.',
  inputs: [],
  outputs: [{ name: 'out', doc: 'The rows, in order.' }],
  params: {
    type: 'object',
    properties: {
      rows: { type: 'array', items: { type: 'object' }, description: 'The records.' },
      ...sourceCommonProps,
      changelog: changelogParam,
    },
    required: ['rows'],
    additionalProperties: false,
  },
  defaults: { rows: [{ id: 1, ts: 0 }], eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } },
  example: {
    rows: [
      { user: 'ann', amount: 12.5, ts: 1000 },
      { user: 'bob', amount: 3, ts: 1500 },
    ],
    schema: { user: 'string', amount: 'number', ts: 'timestamp' },
    eventTime: { field: 'ts', maxOutOfOrdernessMs: 500 },
  },
  stateful: false,
  infer: ({ params }) => {
    const { info, problems } = sourceStream(params, (params.schema as Record<string, FieldType> | undefined) ?? guessFields(params.changelog ? changeRows(params.changelog.format, params.rows ?? []) : (params.rows ?? [])));
    return { outputs: { out: info }, problems };
  },
};
