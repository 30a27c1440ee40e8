import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../streamInfo.ts';
import { sourceCommonProps } from './common.ts';
import type { CommonSourceParams } from '../../engine/source.ts';

export interface FileSourceParams extends CommonSourceParams {
  /** A JSON Lines file; the CLI resolves it relative to the pipeline file, `--input` overrides it. */
  path?: string;
}

export const fileSourceSpec: KindSpec<FileSourceParams> = {
  kind: 'fileSource',
  group: 'sources',
  title: 'JSON Lines file',
  icon: '≣',
  summary: 'Records read from a JSON Lines file, one JSON object per line.',
  semantics:
    'Emits each line of the input as a +I record, in file order, then ends. The input is the file given to the run (`weir run --input <id>=<file>`, or a file loaded in the app), else `path`, resolved relative to the pipeline file. Blank lines are skipped. A line that is not JSON, not an object, has a field of another type than `schema` declares, or lacks the `eventTime` field goes to the dead-letter output with its 1-based line number, the reason and the raw text, and is counted. Offsets count lines, so a restore replays exactly the lines after the checkpointed offset. Without any input the source is empty.',
  inputs: [],
  outputs: [{ name: 'out', doc: 'The records of the file, in order.' }],
  params: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'JSON Lines file, relative to the pipeline file.' },
      ...sourceCommonProps,
    },
    additionalProperties: false,
  },
  defaults: { eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } },
  example: {
    path: 'visits.jsonl',
    schema: { customer_id: 'string', visit_type: 'string', amount: 'number', ts: 'timestamp' },
    eventTime: { field: 'ts', maxOutOfOrdernessMs: 5000 },
  },
  stateful: false,
  infer: ({ params }) => ({
    outputs: {
      out: {
        fields: (params.schema as Record<string, FieldType> | undefined) ?? null,
        eventTime: params.eventTime?.field ?? null,
        keyedBy: null,
        changelog: 'append',
        uniqueKey: null,
      },
    },
    problems:
      params.schema && params.eventTime && !(params.eventTime.field in params.schema)
        ? [{ field: 'params.eventTime.field', message: `the schema declares no field "${params.eventTime.field}"; add it or pick another event-time field`, code: 'unknown-field' }]
        : [],
  }),
};
