import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../streamInfo.ts';
import { changelogParam, sourceCommonProps, sourceStream } from './common.ts';
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
    'Emits each line of the input as a +I record, in file order, then ends. The input is the file given to the run (`weir run --input <id>=<file>`, or a file loaded in the app), else `path`, resolved relative to the pipeline file. Blank lines are skipped. A line that is not JSON, not an object, has a field of another type than `schema` declares, or lacks the `eventTime` field goes to the dead-letter output with its 1-based line number, the reason and the raw text, and is counted. Offsets count lines, so a restore replays exactly the lines after the checkpointed offset. Without any input the source is empty. With `changelog`, each line is a change instead of an append: `debezium-json` reads `{op, before, after}` (c and r insert `after`, u retracts `before` and adds `after`, d retracts `before`; a `payload` envelope is unwrapped and null tombstones are skipped), `changelog-json` reads `{op, data}` with op +I/-U/+U/-D, and `upsert` reads `{key, value}` (a null value deletes the key) or a flat row upserted by its primary key. With `changelog.primaryKey` the source keeps the latest row per key, as Flink\'s ChangelogNormalize does: an update retracts the row it replaces, a delete of an unknown key and an update that changes nothing are dropped, and the table is part of the checkpoint. A changelog source runs as one subtask, so the changes of one key stay in order. The output is an updating stream whose unique key is the primary key.',
  inputs: [],
  outputs: [{ name: 'out', doc: 'The records of the file, in order.' }],
  params: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'JSON Lines file, relative to the pipeline file.' },
      ...sourceCommonProps,
      changelog: changelogParam,
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
  infer: ({ params }) => {
    const { info, problems } = sourceStream(params, (params.schema as Record<string, FieldType> | undefined) ?? null);
    return { outputs: { out: info }, problems };
  },
};
