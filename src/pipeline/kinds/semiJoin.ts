import type { JsonSchema, KindSpec } from '../kindSpec.ts';
import { exprParam, fieldList, missingFields } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { joinKeyProblems, joinPorts } from './join.ts';
import type { JoinKeyParams } from './join.ts';
import { joinedFields } from './joinColumns.ts';

/** A column pair compared as NOT IN compares: a NULL on either side makes the comparison unknown. */
export interface NullAwarePair {
  left: string;
  right: string;
}

/** NOT IN's pair, for the semi / anti join kinds (semiJoin, and windowJoin's anti). */
export const nullAwareSchema: JsonSchema = {
  type: 'object',
  description: "NOT IN's column pair: a right row matches when the two are equal or either is NULL.",
  properties: { left: { type: 'string', minLength: 1, description: 'Left field (the value before NOT IN).' }, right: { type: 'string', minLength: 1, description: 'Right field (the column the subquery selects).' } },
  required: ['left', 'right'],
  additionalProperties: false,
};

export interface SemiJoinParams extends JoinKeyParams {
  /** semi: left rows with at least one matching right row (IN, EXISTS); anti: with none (NOT IN, NOT EXISTS). */
  type: 'semi' | 'anti';
  /** NOT IN's comparison, besides the keys: a right row matches when the pair is equal or either side is NULL. */
  nullAware?: NullAwarePair;
  /** Key equality as IS NOT DISTINCT FROM: a NULL key equals a NULL key (INTERSECT, EXCEPT compare rows so). */
  nullSafeKeys?: boolean;
  /** A further condition on each key-matched pair, over the joined row's columns (as a join's nonEquiCondition). */
  nonEquiCondition?: string;
}

export const semiJoinSpec: KindSpec<SemiJoinParams> = {
  kind: 'semiJoin',
  group: 'joins',
  title: 'Semi / anti join',
  icon: '⋉',
  summary: 'Keeps the left rows that have a match on the right (IN, EXISTS) or that have none (NOT IN, NOT EXISTS); inputs may be updating.',
  semantics:
    'Flink\'s streaming semi and anti join (how its planner runs `IN`/`EXISTS` and `NOT IN`/`NOT EXISTS` subqueries). Per join key (`leftKey = rightKey`, empty for one global key) it keeps every left row with its copies and how many right rows match it, and every right row with its copies. ' +
    'A right row matches a left row when their keys are equal and not NULL, the `nullAware` pair (if set) is equal or has a NULL on either side, and `nonEquiCondition` (if set) is TRUE on their joined row. ' +
    '`semi` outputs a left row while it has at least one match; `anti` while it has none. An arriving or retracted left row is passed on with its own kind when it is (or was) output. When right rows arrive or are retracted, a left row whose match count crosses 0 ↔ 1 is emitted as +I or -D (semi: +I when it gains its first match; anti: -D). Duplicates on the right count once towards "has a match"; duplicates on the left are output once per copy. ' +
    'SQL NULL semantics: a NULL key never matches, so `semi` drops such a left row and `anti` keeps it; with `nullSafeKeys` keys compare as IS NOT DISTINCT FROM, so a NULL key matches a NULL key (as INTERSECT and EXCEPT compare rows). With `nullAware` (NOT IN), a NULL on the right matches every left row under its key, so `x NOT IN (…, NULL)` outputs nothing, and a left NULL matches every right row, so it is output only while the right side is empty. ' +
    'A retraction of a row the operator does not hold goes to the dead-letter output. The output has the left input\'s columns and unique key; it has no event-time column (as a regular join). It is an updating stream unless it is a semi join of two append-only inputs. State grows with both inputs; a key\'s right change scans that key\'s left rows.',
  inputs: joinPorts,
  outputs: [{ name: 'out', doc: 'Left rows as a changelog.' }],
  params: {
    type: 'object',
    properties: {
      type: { enum: ['semi', 'anti'], description: 'semi: keep left rows with a match (IN, EXISTS); anti: keep left rows without one (NOT IN, NOT EXISTS).' },
      leftKey: fieldList('Key fields of the left input compared for equality with rightKey; empty: one key for every row.', 0),
      rightKey: fieldList('Key fields of the right input, in the same order as leftKey.', 0),
      nullAware: nullAwareSchema,
      nullSafeKeys: { type: 'boolean', description: 'Compare the keys as IS NOT DISTINCT FROM: NULL matches NULL (INTERSECT, EXCEPT). Off: a NULL key matches nothing (=, IN, EXISTS).' },
      nonEquiCondition: exprParam("Extra join condition on each key-matched pair, written over the joined row's columns (right fields renamed `_right` when taken), e.g. `amount > limit_right`."),
    },
    required: ['type', 'leftKey', 'rightKey'],
    additionalProperties: false,
  },
  defaults: { type: 'semi', leftKey: ['id'], rightKey: ['id'] },
  example: { type: 'anti', leftKey: ['customer_id'], rightKey: ['id'] },
  stateful: true,
  infer: ({ params, inputs }) => {
    const left = inputs.left;
    const updating = params.type === 'anti' || Object.values(inputs).some((s) => s.changelog === 'update');
    const out = { fields: left?.fields ? { ...left.fields } : null, eventTime: null, keyedBy: null, changelog: updating ? ('update' as const) : ('append' as const), uniqueKey: left?.uniqueKey ?? null, ...(updating ? { unpairedUpdates: true as const } : {}) };
    const problems = joinKeyProblems(params, inputs);
    if (params.nullAware) problems.push(...missingFields(inputs.left, [params.nullAware.left], 'params.nullAware.left'), ...missingFields(inputs.right, [params.nullAware.right], 'params.nullAware.right'));
    if (params.nonEquiCondition !== undefined) {
      const joined = { ...out, fields: joinedFields(inputs.left, inputs.right) };
      problems.push(...exprProblems(params.nonEquiCondition, joined, 'params.nonEquiCondition'));
    }
    return { outputs: { out }, problems };
  },
};
