import type { JsonSchema, KindSpec, PortSpec } from '../kindSpec.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { durationMs, exprParam, fieldList, inputOf, missingFields } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import type { InferProblem } from './common.ts';
import { joinedFields, rightColumnName } from './joinColumns.ts';
import { joinLineage } from '../lineage/joinLineage.ts';

export type JoinType = 'inner' | 'left' | 'right' | 'full';

/** Params every join kind shares: the equi-join key of each side. */
export interface JoinKeyParams {
  leftKey: string[];
  rightKey: string[];
}

export interface JoinParams extends JoinKeyParams {
  type: JoinType;
  /** Idle state retention in processing time (Flink's `table.exec.state.ttl`); absent = keep forever. */
  ttlMs?: number;
  /** A residual condition on each key-matched pair, over the joined row's columns (Flink's JoinSpec.nonEquiCondition). */
  nonEquiCondition?: string;
}

/** Key fields of a join port: the runtime sets the key context from them. */
export const joinKeyFields = (p: JoinKeyParams, port: string): string[] | null => (port === 'left' ? p.leftKey : port === 'right' ? p.rightKey : null);

export const joinKeySchema: Record<string, JsonSchema> = {
  leftKey: fieldList('Join key fields of the left input (left.k1 = right.k1 AND ...).'),
  rightKey: fieldList('Join key fields of the right input, in the same order as leftKey.', 0),
};

export const joinTypeSchema = (types: readonly JoinType[]): JsonSchema => ({ enum: [...types], description: 'INNER, LEFT, RIGHT or FULL OUTER join.' });

export const joinPorts: PortSpec[] = [
  { name: 'left', doc: 'Left input.' },
  { name: 'right', doc: 'Right input.' },
];

export const joinOutputDoc =
  'Output rows hold all left fields, then all right fields; a right field whose name is already a left field is renamed `<name>_right` (and `_right` is appended again while that name is taken). On an outer join\'s padded side every field known from that side\'s schema is NULL; when that schema is unknown the padded fields are absent. A row with a NULL key field matches nothing (SQL equality). Each output element\'s timestamp is the later of both sides\' timestamps (a padded row keeps its own).';

/** Key problems shared by the join kinds: lengths must agree and fields must exist upstream. */
export function joinKeyProblems(params: Partial<JoinKeyParams>, inputs: Record<string, StreamInfo>): InferProblem[] {
  const leftKey = params.leftKey ?? [];
  const rightKey = params.rightKey ?? [];
  const problems: InferProblem[] = [...missingFields(inputs.left, leftKey, 'params.leftKey'), ...missingFields(inputs.right, rightKey, 'params.rightKey')];
  if (leftKey.length !== rightKey.length) {
    problems.push({ field: 'params.rightKey', message: `leftKey has ${leftKey.length} field(s) but rightKey has ${rightKey.length}; they pair up one by one`, code: 'bad-param-value' });
  }
  return problems;
}

export function needsEventTime(inputs: Record<string, StreamInfo>, port: string, what: string): InferProblem[] {
  if (inputOf(inputs, port).eventTime) return [];
  return [{ field: `inputs.${port}`, message: `${what} needs event time on its ${port} input: set eventTime on the source`, code: 'no-event-time' }];
}

export function needsAppendOnly(inputs: Record<string, StreamInfo>, port: string, what: string): InferProblem[] {
  if (inputOf(inputs, port).changelog === 'append') return [];
  return [{ field: `inputs.${port}`, message: `${what} takes only inserts on its ${port} input, but that stream has updates; use a regular join instead`, code: 'needs-append-only' }];
}

/** Output stream facts shared by the join kinds. */
export function joinedStream(inputs: Record<string, StreamInfo>, changelog: 'append' | 'update', eventTime: string | null, uniqueKey: string[] | null = null): StreamInfo {
  return { fields: joinedFields(inputs.left, inputs.right), eventTime, keyedBy: null, changelog, uniqueKey };
}

/** Both inputs identify their rows, so a joined row is identified by both identities together. */
function joinUniqueKey(inputs: Record<string, StreamInfo>): string[] | null {
  const l = inputs.left?.uniqueKey;
  const r = inputs.right?.uniqueKey;
  if (!l || !r) return null;
  return [...l, ...r.map((f) => rightColumnName(inputs.left, inputs.right, f))];
}

export const joinSpec: KindSpec<JoinParams> = {
  kind: 'join',
  group: 'joins',
  title: 'Join',
  icon: '⋈',
  summary: 'Regular stream-stream join (INNER, LEFT, RIGHT, FULL) on equal keys; inputs may be updating.',
  semantics:
    'A regular SQL join of two streams on `leftKey = rightKey`, as Flink\'s StreamingJoinOperator. Each side keeps every row it has seen in keyed state, per join key in the view its unique key allows, as Flink\'s JoinRecordStateViews: one row when the join key contains the side\'s unique key, rows by unique key when the side has one, else row → copies; each with its matches. **Without `ttlMs`, both sides are kept forever and state grows without bound.** With `ttlMs`, a buffered row is dropped once it has not been written for `ttlMs` of processing time (Flink\'s `table.exec.state.ttl`); dropping is silent, so late partners of an expired row find nothing and results can be incomplete. ' +
    '+I/+U input rows add one copy to their side; -U/-D remove one copy (a retraction of a row that is not buffered goes to the dead-letter output). ' +
    'INNER: a new row emits +I for each buffered match on the other side; a retracted row emits -D for each match. ' +
    'With `nonEquiCondition` (the rest of the ON clause, e.g. `l.amount > r.limit`), a pair of rows with equal keys matches only when the condition is TRUE on their joined row (NULL counts as false); everything below then counts only matching pairs. ' +
    'OUTER (the preserved side(s) of left/right/full): a preserved row with no match emits its NULL-padded row (+I). When a row later arrives on the other side and a preserved row had 0 matches, the join first emits -D of the padded row, then +I of the joined row. When a retraction removes the last match of a preserved row, it emits -D of the joined row, then +I of the padded row again. Retracting an unmatched preserved row emits -D of its padded row. ' +
    joinOutputDoc +
    ' The output is an updating stream when the join is outer or an input is updating, else append-only; its unique key is both inputs\' unique keys together when both have one. The output has no event-time column (as in Flink, a regular join drops time attributes).',
  inputs: joinPorts,
  outputs: [{ name: 'out', doc: 'Joined rows as a changelog.' }],
  params: {
    type: 'object',
    properties: {
      type: joinTypeSchema(['inner', 'left', 'right', 'full']),
      // No key: every row meets every row, as a scalar subquery's one-row aggregate joins its query.
      leftKey: fieldList('Join key fields of the left input (left.k1 = right.k1 AND ...); empty: every left row pairs with every right row.', 0),
      rightKey: joinKeySchema.rightKey,
      ttlMs: durationMs('Drop buffered rows not written for this long (processing time). Leave out to keep both sides forever.'),
      nonEquiCondition: exprParam('Extra join condition on each key-matched pair, written over the joined row\'s columns (right fields renamed `_right` when taken), e.g. `amount > limit_right`.'),
    },
    required: ['type', 'leftKey', 'rightKey'],
    additionalProperties: false,
  },
  defaults: { type: 'inner', leftKey: ['id'], rightKey: ['id'] },
  example: { type: 'left', leftKey: ['customer_id'], rightKey: ['id'], ttlMs: 3_600_000 },
  stateful: true,
  lineage: ({ params, inputs, outputs }) => ({ out: joinLineage(params, inputs, outputs.out) }),
  infer: ({ params, inputs }) => {
    const updating = params.type !== 'inner' || Object.values(inputs).some((s) => s.changelog === 'update');
    const out = joinedStream(inputs, updating ? 'update' : 'append', null, joinUniqueKey(inputs));
    const problems = joinKeyProblems(params, inputs);
    if (params.nonEquiCondition !== undefined) problems.push(...exprProblems(params.nonEquiCondition, out, 'params.nonEquiCondition'));
    return { outputs: { out }, problems };
  },
};
