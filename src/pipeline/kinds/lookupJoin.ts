import type { KindSpec } from '../kindSpec.ts';
import { inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import type { JoinKeyParams } from './join.ts';
import { joinedStream, joinKeyProblems, joinKeySchema, joinOutputDoc, needsAppendOnly, joinTypeSchema } from './join.ts';
import { joinLineage } from '../lineage/joinLineage.ts';

export interface LookupJoinParams extends JoinKeyParams {
  type: 'inner' | 'left';
  /** Left rows wait until a right input that ends has ended (the dimension table is loaded first); default true. */
  loadFirst?: boolean;
}

/** `loadFirst` as the operator reads it: absent means true. */
export const loadsFirst = (p: Pick<LookupJoinParams, 'loadFirst'>): boolean => p.loadFirst !== false;

export const lookupJoinSpec: KindSpec<LookupJoinParams> = {
  kind: 'lookupJoin',
  group: 'joins',
  title: 'Lookup join',
  icon: '⌕',
  summary: 'Enriches each event with the current row of a dimension table (FOR SYSTEM_TIME AS OF a processing-time column).',
  semantics:
    'A processing-time lookup join, `left JOIN right FOR SYSTEM_TIME AS OF left.proc_time ON leftKey = rightKey`, as Flink\'s LookupJoin against a dimension table. The `left` input is an append-only probe stream; the `right` input is the dimension table, a changelog keyed by its primary key `rightKey`. Neither input needs event time. ' +
    'The right side\'s current row per key is kept in keyed state: a +I or +U row becomes the key\'s row (a later insert of the same key replaces it), a -U or -D row removes it. ' +
    'With `loadFirst` (the default) left rows wait in state until the right input has ended, so that a bounded dimension table is loaded completely first, as a database table is there before the job starts; waiting rows are then joined in their arrival order. A checkpoint keeps the table, the waiting rows and whether the right input has ended, so a restore goes on exactly where the run was. When the right input never ends (it is fed by a live feed) or `loadFirst` is false, each left row is joined on arrival with the right row its key has at that moment. ' +
    'With no row for the key (none yet, or deleted), an `inner` join drops the left row and a `left` join emits it NULL-padded. Later right changes never retract or revise earlier output (a lookup reads the table once, when the row is joined). ' +
    joinOutputDoc.replace(/ Each output element's timestamp is .*$/, '') +
    ' The output is append-only and each row keeps the left row\'s event time (the right row\'s time is not part of it).',
  inputs: [
    { name: 'left', doc: 'Probe stream: append-only.' },
    { name: 'right', doc: 'Dimension table: a changelog keyed by rightKey.' },
  ],
  outputs: [{ name: 'out', doc: 'Each left row with the current row of its key, append-only.' }],
  params: {
    type: 'object',
    properties: {
      type: joinTypeSchema(['inner', 'left']),
      ...joinKeySchema,
      loadFirst: { type: 'boolean', description: 'Hold left rows until the right input has ended, so a bounded dimension table is loaded first; default true. Off: join each left row on arrival.' },
    },
    required: ['type', 'leftKey', 'rightKey'],
    additionalProperties: false,
  },
  defaults: { type: 'left', leftKey: ['id'], rightKey: ['id'] },
  example: { type: 'left', leftKey: ['product'], rightKey: ['product'], loadFirst: true },
  stateful: true,
  lineage: ({ params, inputs, outputs }) => ({ out: joinLineage(params, inputs, outputs.out) }),
  infer: ({ params, inputs }) => {
    const problems: InferProblem[] = [...joinKeyProblems(params, inputs), ...needsAppendOnly(inputs, 'left', 'A lookup join')];
    const pk = inputOf(inputs, 'right').uniqueKey;
    const rightKey = params.rightKey ?? [];
    if (pk && pk.some((f) => !rightKey.includes(f))) {
      problems.push({ field: 'params.rightKey', message: `the dimension table's primary key is (${pk.join(', ')}); rightKey must contain all of it, or rows with different keys would overwrite each other`, code: 'key-mismatch' });
    }
    return { outputs: { out: joinedStream(inputs, 'append', inputOf(inputs, 'left').eventTime) }, problems };
  },
};
