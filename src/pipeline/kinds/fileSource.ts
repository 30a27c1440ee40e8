import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { changelogParam, sourceCommonProps, sourceStream } from './common.ts';
import type { CommonSourceParams } from '../../core/source.ts';

export type FileFormat = 'jsonl' | 'csv' | 'json';

export interface FileSourceParams extends CommonSourceParams {
  /** A data file; the CLI resolves it relative to the pipeline file, `--input` overrides it. */
  path?: string;
  /** Default: by the file's extension (.csv/.tsv: csv, .json: json), else jsonl. */
  format?: FileFormat;
  /** CSV only; default `,` (a tab for .tsv files). */
  delimiter?: string;
}

/** The format a file is read in: the declared one, else its extension's. */
export function fileFormatOf(params: Pick<FileSourceParams, 'format'>, fileName: string | undefined): FileFormat {
  if (params.format) return params.format;
  const ext = /\.([a-z]+)$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'tsv' ? 'csv' : ext === 'json' ? 'json' : 'jsonl';
}

export const fileSourceSpec: KindSpec<FileSourceParams> = {
  kind: 'fileSource',
  group: 'sources',
  title: 'Data file',
  icon: '≣',
  summary: 'Records read from a CSV, JSON Lines or JSON array file.',
  semantics:
    'Emits each record of the input as a +I record, in file order, then ends. `format` says how to read it: `jsonl` (one JSON object per line), `csv` (RFC 4180 with a header line naming the fields, parsed by papaparse; quoted fields may span lines; cells become the `schema` types, an empty cell is NULL, and without a schema the types are inferred from the first 200 records) or `json` (one array of objects, read element by element). Without `format`, the file extension decides (.csv, .tsv, .json, else JSON Lines). The input is the file given to the run (`weir run --input <id>=<file>`, or a file loaded in the app), else `path`, resolved relative to the pipeline file. Blank lines are skipped. A record that cannot be read (not JSON, a CSV line with another number of fields than the header, an unclosed quote), not an object, has a field of another type than `schema` declares, or lacks the `eventTime` field goes to the dead-letter output with its 1-based line number, the reason and the raw text, and is counted. Offsets count lines (elements for a JSON array), so a restore replays exactly the records after the checkpointed offset. A file given in the app (dropped or picked) is kept in the browser and read in blocks of about 1 MB, never whole; the checkpoint keeps the byte where the block holding the offset starts, so a restore reads on from there (a JSON array is read again from its start, block by block). It also keeps which file that was (its size and a hash of its first and last 64 KB): a restore into another file, say one picked again with other contents, is refused with an error naming the source and the file, rather than reading another file on from the checkpointed offset. Lines end at LF or CRLF. Without any input the source is empty. With `changelog`, each line is a change instead of an append: `debezium-json` reads `{op, before, after}` (c and r insert `after`, u retracts `before` and adds `after`, d retracts `before`; a `payload` envelope is unwrapped and null tombstones are skipped), `canal-json` reads `{type, data: [rows], old: [previous values]}` (one change per row; an update\'s before image is its row with `old` put back; DDL records are skipped), `maxwell-json` reads `{type, data, old}` the same way for one row, `changelog-json` reads `{op, data}` with op +I/-U/+U/-D, and `upsert` reads `{key, value}` (a null value deletes the key) or a flat row upserted by its primary key. With `changelog.primaryKey` the source keeps the latest row per key, as Flink\'s ChangelogNormalize does: an update retracts the row it replaces, a delete of an unknown key and an update that changes nothing are dropped, and the table is part of the checkpoint. A changelog source runs as one subtask, so the changes of one key stay in order. The output is an updating stream whose unique key is the primary key.',
  inputs: [],
  outputs: [{ name: 'out', doc: 'The records of the file, in order.' }],
  params: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'Data file, relative to the pipeline file.' },
      format: { enum: ['jsonl', 'csv', 'json'], description: 'jsonl: one JSON object per line; csv: a header line, then one record per line; json: one JSON array of objects. Default: by the file extension.' },
      delimiter: { type: 'string', minLength: 1, maxLength: 1, description: 'CSV field delimiter; default comma (tab for .tsv).', 'x-weir-visible-when': { format: ['csv'] } },
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
