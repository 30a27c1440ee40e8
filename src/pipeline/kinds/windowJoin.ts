import type { KindSpec } from '../kindSpec.ts';
import { exprParam, fieldList, inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { joinedStream, joinKeyProblems, joinOutputDoc, joinPorts } from './join.ts';
import type { JoinKeyParams, JoinType } from './join.ts';
import { windowedStream, windowingDoc, windowingProblems, windowingSchema } from './windowing.ts';
import type { Windowing } from './windowing.ts';
import { joinLineage } from '../lineage/joinLineage.ts';
import type { NullAwarePair } from './semiJoin.ts';
import { nullAwareSchema } from './semiJoin.ts';

export interface WindowJoinParams extends JoinKeyParams {
  /** semi / anti: the left rows of a window with / without a partner in it (IN, EXISTS / NOT IN, NOT EXISTS). */
  type: JoinType | 'semi' | 'anti';
  /** anti only, for NOT IN: a right row is a partner when this pair is equal or has a NULL on either side. */
  nullAware?: NullAwarePair;
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
    ' The window columns of the right side therefore appear as window_start_right, window_end_right and window_time_right. The output is append-only; an inner window join keeps the left window_time as event time, an outer one has none. ' +
    '`semi` and `anti` are Flink\'s window semi and anti joins (`WHERE l.k [NOT] IN (SELECT …)` or `[NOT] EXISTS (SELECT … WHERE l.window_start = r.window_start AND l.window_end = r.window_end …)` over two window table functions): when the window closes, each left row with (semi) or without (anti) a partner in the same window is emitted once, with the left columns and the window columns only, keeping window_time as event time. A partner has equal, non-NULL keys, satisfies `nonEquiCondition`, and for `nullAware` (NOT IN) has the pair equal or NULL on either side, so a NULL on the right keeps every left row of its key and window out.',
  inputs: joinPorts,
  outputs: [{ name: 'out', doc: 'Joined rows of each closed window, insert-only.' }],
  params: {
    type: 'object',
    properties: {
      type: { enum: ['inner', 'left', 'right', 'full', 'semi', 'anti'], description: 'INNER, LEFT, RIGHT or FULL OUTER join, or a semi / anti join (IN, EXISTS / NOT IN, NOT EXISTS) that keeps left rows only.' },
      nullAware: { ...nullAwareSchema, 'x-weir-visible-when': { type: ['anti'] } },
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
    if (params.type === 'semi' || params.type === 'anti') {
      // The left rows, windowed: their columns and the window's, with window_time as event time.
      const out = { ...left, changelog: 'append' as const, uniqueKey: null, keyedBy: null, eventTime: left.fields && 'window_time' in left.fields ? 'window_time' : null };
      if (params.nullAware && right.fields && !(params.nullAware.right in right.fields)) problems.push({ field: 'params.nullAware.right', message: `no field "${params.nullAware.right}" on the right`, code: 'unknown-field' });
      if (params.nullAware && left.fields && !(params.nullAware.left in left.fields)) problems.push({ field: 'params.nullAware.left', message: `no field "${params.nullAware.left}" on the left`, code: 'unknown-field' });
      if (params.nonEquiCondition !== undefined) problems.push(...exprProblems(params.nonEquiCondition, joinedStream(windowed, 'append', null), 'params.nonEquiCondition'));
      return { outputs: { out }, problems };
    }
    const out = joinedStream(windowed, 'append', null);
    if (params.type === 'inner' && out.fields && 'window_time' in out.fields) out.eventTime = 'window_time';
    if (params.nonEquiCondition !== undefined) problems.push(...exprProblems(params.nonEquiCondition, out, 'params.nonEquiCondition'));
    return { outputs: { out }, problems };
  },
};
