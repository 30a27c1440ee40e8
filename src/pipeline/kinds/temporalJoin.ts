import type { KindSpec } from '../kindSpec.ts';
import { inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import type { JoinKeyParams } from './join.ts';
import { joinedStream, joinKeyProblems, joinKeySchema, joinOutputDoc, needsAppendOnly, needsEventTime, joinTypeSchema } from './join.ts';
import { joinLineage } from '../lineage/joinLineage.ts';

export interface TemporalJoinParams extends JoinKeyParams {
  type: 'inner' | 'left';
}

export const temporalJoinSpec: KindSpec<TemporalJoinParams> = {
  kind: 'temporalJoin',
  group: 'joins',
  title: 'Temporal join',
  icon: '⧗',
  summary: 'Joins each event with the version of a changing table that was valid at the event\'s time (FOR SYSTEM_TIME AS OF).',
  semantics:
    'An event-time temporal join, `left JOIN right FOR SYSTEM_TIME AS OF left.rowtime ON leftKey = rightKey`, as Flink\'s TemporalRowTimeJoinOperator. The `left` input is an append-only probe stream; the `right` input is the changelog of a versioned table keyed by `rightKey`, and both need event time. ' +
    'A right +I/+U row sets the version of its key from its event time on; a -U/-D row ends it (no version from then on). Two changes of one key at the same event time: the later arrival wins. ' +
    'Left rows wait in state until the watermark (minimum of both inputs) reaches their event time; then each is joined with the version valid at that time — the latest right change with ts ≤ left.ts — and emitted as +I. With no valid version (none yet, or deleted) an `inner` join drops the row and a `left` join emits it NULL-padded. A left row whose event time is not after the watermark when it arrives is late: it goes to the dead-letter output and is counted as `lateRecords`. ' +
    'Versions no longer needed are cleaned up as the watermark moves: all versions older than the newest one at or before the watermark. That newest one is kept even when it is a delete, so that a late change with an older time cannot come back as the valid version; right state thus holds one entry per key plus the changes the watermark has not reached. A late right change (not after the watermark) is still stored and serves later probe rows if it is the newest version for them. ' +
    joinOutputDoc +
    ' The output is append-only and its event-time column is the left input\'s (each row keeps left.ts, since its version is never later).',
  inputs: [
    { name: 'left', doc: 'Probe stream: append-only, with event time.' },
    { name: 'right', doc: 'Versioned table: a changelog with event time, keyed by rightKey.' },
  ],
  outputs: [{ name: 'out', doc: 'Each left row with its version, append-only.' }],
  params: {
    type: 'object',
    properties: { type: joinTypeSchema(['inner', 'left']), ...joinKeySchema },
    required: ['type', 'leftKey', 'rightKey'],
    additionalProperties: false,
  },
  defaults: { type: 'left', leftKey: ['id'], rightKey: ['id'] },
  example: { type: 'left', leftKey: ['currency'], rightKey: ['currency'] },
  stateful: true,
  lineage: ({ params, inputs, outputs }) => ({ out: joinLineage(params, inputs, outputs.out) }),
  infer: ({ params, inputs }) => {
    const problems: InferProblem[] = [
      ...joinKeyProblems(params, inputs),
      ...needsEventTime(inputs, 'left', 'A temporal join'),
      ...needsEventTime(inputs, 'right', 'A temporal join'),
      ...needsAppendOnly(inputs, 'left', 'A temporal join'),
    ];
    const pk = inputOf(inputs, 'right').uniqueKey;
    const rightKey = params.rightKey ?? [];
    if (pk && pk.some((f) => !rightKey.includes(f))) {
      problems.push({ field: 'params.rightKey', message: `the versioned table's primary key is (${pk.join(', ')}); rightKey must contain all of it, or rows with different keys would overwrite each other's versions`, code: 'key-mismatch' });
    }
    return { outputs: { out: joinedStream(inputs, 'append', inputOf(inputs, 'left').eventTime) }, problems };
  },
};
