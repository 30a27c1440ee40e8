import type { KindSpec } from '../kindSpec.ts';
import { exprParam, fieldList, inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { joinedStream, joinKeyProblems, joinOutputDoc, joinPorts, joinTypeSchema } from './join.ts';
import type { JoinKeyParams, JoinType } from './join.ts';
import { windowedStream, windowingDoc, windowingProblems, windowingSchema } from './windowing.ts';
import type { Windowing } from './windowing.ts';
import { joinLineage } from '../lineage/joinLineage.ts';

export interface WindowJoinParams extends JoinKeyParams {
  type: JoinType;
  /** The window both inputs are cut into; rows join only within the same window. */
  window: Windowing;
  /** A residual condition on each key-matched pair, over the joined row's columns. */
  nonEquiCondition?: string;
}

export const windowJoinSpec: KindSpec<WindowJoinParams> = {
  kind: 'windowJoin',
  group: 'joins',
  title: 'Window join',
  icon: '⋈',
  summary: 'Joins two windowed streams per window (INNER, LEFT, RIGHT, FULL), emitting once when the window closes.',
  semantics:
    'Flink\'s window join: `FROM TABLE(TUMBLE(L…)) L JOIN TABLE(TUMBLE(R…)) R ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k`, as Flink\'s WindowJoinOperator. ' +
    windowingDoc +
    ' Both inputs use the same windowing. Each side buffers its rows per join key and window; when the watermark (the smaller of both inputs\') reaches window_end − 1 the window joins its rows once: every left row with every right row of the same key and window that satisfies `nonEquiCondition` (+I each); on the preserved side(s) of an outer join a row with no such partner is emitted NULL-padded (+I). Then the window\'s state is dropped. ' +
    joinOutputDoc +
    ' The window columns of the right side therefore appear as window_start_right, window_end_right and window_time_right. The output is append-only; an inner window join keeps the left window_time as event time, an outer one has none.',
  inputs: joinPorts,
  outputs: [{ name: 'out', doc: 'Joined rows of each closed window, insert-only.' }],
  params: {
    type: 'object',
    properties: {
      type: joinTypeSchema(['inner', 'left', 'right', 'full']),
      // Flink joins windows on window_start and window_end alone as well: no key puts every row of a window together.
      leftKey: fieldList('Join key fields of the left input (left.k1 = right.k1 AND ...); empty: every pair of the same window.', 0),
      rightKey: fieldList('Join key fields of the right input, in the same order as leftKey.', 0),
      window: windowingSchema('The window of both inputs: rows join only within one window.'),
      nonEquiCondition: exprParam('Extra join condition on each key-matched pair, written over the joined row\'s columns (right fields renamed `_right` when taken), e.g. `amount > limit_right`.'),
    },
    required: ['type', 'leftKey', 'rightKey', 'window'],
    additionalProperties: false,
  },
  defaults: { type: 'inner', leftKey: ['id'], rightKey: ['id'], window: { type: 'tumble', sizeMs: 60_000 } },
  example: { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'], window: { type: 'tumble', sizeMs: 600_000 } },
  stateful: true,
  lineage: ({ params, inputs, outputs }) => ({ out: joinLineage(params, inputs, outputs.out, params.window ?? { type: 'tumble' }) }),
  infer: ({ params, inputs }) => {
    const w: Windowing = params.window ?? { type: 'tumble' };
    const left = inputs.left ? windowedStream(w, inputs.left) : inputOf(inputs, 'left');
    const right = inputs.right ? windowedStream(w, inputs.right) : inputOf(inputs, 'right');
    const windowed = { left, right };
    const problems: InferProblem[] = [
      ...joinKeyProblems(params, inputs),
      ...windowingProblems(params.window, inputs.left, 'params.window', 'left'),
      ...windowingProblems(params.window, inputs.right, 'params.window', 'right').filter((p) => p.field.startsWith('inputs.') || p.code === 'unknown-field' || p.code === 'duplicate-column'),
    ];
    const out = joinedStream(windowed, 'append', null);
    if (params.type === 'inner' && out.fields && 'window_time' in out.fields) out.eventTime = 'window_time';
    if (params.nonEquiCondition !== undefined) problems.push(...exprProblems(params.nonEquiCondition, out, 'params.nonEquiCondition'));
    return { outputs: { out }, problems };
  },
};
