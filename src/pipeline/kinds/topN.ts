import type { KindSpec } from '../kindSpec.ts';
import { fieldList, inputOf, missingFields } from './common.ts';
import type { InferProblem } from './common.ts';
import { windowedStream, windowingDoc, windowingProblems, windowingSchema } from './windowing.ts';
import type { Windowing } from './windowing.ts';
import { fromView, windowedView } from '../lineage/derive.ts';
import type { PortLineage } from '../lineage/types.ts';

export interface TopNOrder {
  field: string;
  direction: 'asc' | 'desc';
}

/** Flink's ranking functions: ROW_NUMBER, RANK (ties share a rank, the next ranks are skipped), DENSE_RANK (none skipped). */
export type RankFunction = 'rowNumber' | 'rank' | 'denseRank';

const RANK_SQL: Record<RankFunction, string> = { rowNumber: 'ROW_NUMBER', rank: 'RANK', denseRank: 'DENSE_RANK' };
export const rankSql = (fn: RankFunction | undefined): string => RANK_SQL[fn ?? 'rowNumber'];

export interface TopNParams {
  partitionBy: string[];
  orderBy: TopNOrder[];
  n: number;
  /** How rows are numbered; `rowNumber` by default. */
  rankFunction?: RankFunction;
  /** Output column holding the 1-based rank; `rownum` by default. */
  rankField?: string;
  /** Window Top-N: rank within each window, once, when it closes (Flink's WindowRank). */
  window?: Windowing;
}

export const DEFAULT_RANK_FIELD = 'rownum';

export const topNSpec: KindSpec<TopNParams> = {
  kind: 'topN',
  group: 'keyed',
  title: 'Top N',
  icon: '№',
  summary: 'The first n rows of each partition by an ordering, kept up to date as a changelog.',
  semantics:
    'Flink SQL `ROW_NUMBER() OVER (PARTITION BY partitionBy ORDER BY orderBy) AS rankField … WHERE rankField <= n`. ' +
    'Each partition keeps its rows sorted in keyed state; equal sort keys keep arrival order (the earlier row ranks first). ' +
    'NULL sorts lowest: first in ascending order, last in descending order. ' +
    'On an append-only input only the top n rows are kept and a row that would rank below n is ignored. ' +
    'On an updating input every row is kept (+I/+U add a copy, -U/-D remove one equal copy) so that a retraction can promote the next row. ' +
    'After each input the old and new top n are compared rank by rank: a rank that gains a row emits +I, a rank whose row changed emits -U (old) then +U (new), ' +
    'and a rank that loses its row emits -D. Output rows are the input row plus `rankField` (1-based). ' +
    'The output is an updating stream whose unique key is partitionBy + rankField. A retraction of a row the partition does not hold goes to the dead-letter output.\n\n' +
    '**Ranking function** (`rankFunction`): `rowNumber` (default) numbers rows 1, 2, 3 …; `rank` (Flink `RANK()`) gives rows that sort equal the same rank and skips the ranks they take (1, 1, 3), ' +
    '`denseRank` (`DENSE_RANK()`) gives them the same rank and skips none (1, 1, 2). With either, every row whose rank is at most n is kept, so ties can keep more than n rows, and the output has no unique key (ties share a rank).\n\n' +
    '**Window Top-N** (`window` set; Flink\'s WindowRank, `ROW_NUMBER() OVER (PARTITION BY window_start, window_end, … ORDER BY …)` on a window TVF or a window aggregate): rows are ranked per partition and window. ' +
    windowingDoc +
    ' When its window closes, each partition emits its top n rows once, in rank order, as +I with `rankField`; nothing is retracted later. The input must be insert-only; the output is append-only, its unique key partitionBy + window_start + window_end + rankField.',
  inputs: [{ name: 'in', doc: 'Any stream, append-only or updating.' }],
  outputs: [{ name: 'out', doc: 'Changelog of the ranking, keyed by partition and rank.' }],
  params: {
    type: 'object',
    properties: {
      partitionBy: fieldList('PARTITION BY fields (may be empty for one global ranking).', 0),
      orderBy: {
        type: 'array',
        minItems: 1,
        description: 'ORDER BY: the first entry decides, later ones break ties.',
        items: {
          type: 'object',
          properties: {
            field: { type: 'string', minLength: 1, description: 'Field to sort by.' },
            direction: { enum: ['asc', 'desc'], description: 'asc: smallest first; desc: largest first.' },
          },
          required: ['field', 'direction'],
          additionalProperties: false,
        },
      },
      n: { type: 'integer', minimum: 1, description: 'How many rows each partition keeps in the ranking.' },
      rankFunction: { enum: ['rowNumber', 'rank', 'denseRank'], description: 'How rows are ranked: rowNumber 1, 2, 3; rank gives ties one rank and skips after them (1, 1, 3); denseRank skips none (1, 1, 2).' },
      rankField: { type: 'string', minLength: 1, description: 'Output column for the 1-based rank (default `rownum`).' },
      window: windowingSchema('Window Top-N: rank within each window and emit once when it closes. Leave out for a continuous ranking.'),
    },
    required: ['partitionBy', 'orderBy', 'n'],
    additionalProperties: false,
  },
  defaults: { partitionBy: [], orderBy: [{ field: 'amount', direction: 'desc' }], n: 3 },
  example: { partitionBy: ['category'], orderBy: [{ field: 'sales', direction: 'desc' }], n: 3, rankField: 'rownum' },
  stateful: true,
  codeParams: [],
  lineage: ({ params, inputs, outputs }) => {
    const view = windowedView(params.window, inputs.in?.[0], 'in');
    const partitionBy = params.partitionBy ?? [];
    const orderBy = params.orderBy ?? [];
    const own: PortLineage = {};
    for (const p of partitionBy) if (view[p]) own[p] = { ...view[p], role: 'partitionKey' };
    const partition = partitionBy.length ? `PARTITION BY ${partitionBy.join(', ')} ` : '';
    const order = orderBy.map((o) => `${o.field} ${o.direction.toUpperCase()}`).join(', ');
    // The rank is decided by the partition and the ordering: those are the columns it derives from.
    const from = [...partitionBy, ...orderBy.map((o) => o.field)].flatMap((f) => view[f]?.from ?? []);
    own[params.rankField ?? DEFAULT_RANK_FIELD] = { how: 'rank', from, expr: `${rankSql(params.rankFunction)}() OVER (${partition}ORDER BY ${order})` };
    return { out: fromView(outputs.out, view, own) };
  },
  infer: ({ params, inputs }) => {
    const w = params.window;
    const input = w && inputs.in ? windowedStream(w, inputs.in) : inputOf(inputs);
    const partitionBy = params.partitionBy ?? [];
    const orderBy = params.orderBy ?? [];
    const rankField = params.rankField ?? DEFAULT_RANK_FIELD;
    const problems: InferProblem[] = [
      ...missingFields(input, partitionBy, 'params.partitionBy'),
      ...missingFields(
        input,
        orderBy.map((o) => o.field),
        'params.orderBy',
      ).map((p) => ({ ...p, field: `${p.field}.field` })),
    ];
    if (input.fields && rankField in input.fields) {
      problems.push({ field: 'params.rankField', message: `the input already has a field "${rankField}"; choose another rank column name`, code: 'duplicate-column' });
    }
    problems.push(...windowingProblems(w, inputs.in, 'params.window'));
    return {
      outputs: {
        out: {
          fields: input.fields ? { ...input.fields, [rankField]: 'integer' } : null,
          eventTime: input.eventTime,
          keyedBy: null,
          changelog: w ? 'append' : 'update',
          // Ties share a RANK or DENSE_RANK, so only ROW_NUMBER's rank tells rows apart.
          uniqueKey: (params.rankFunction ?? 'rowNumber') !== 'rowNumber' ? null : w ? [...partitionBy, 'window_start', 'window_end', rankField] : [...partitionBy, rankField],
        },
      },
      problems,
    };
  },
};
