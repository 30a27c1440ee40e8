import { describe } from 'vitest';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { disorderedRows, inline, pipeline, sometimesNull } from './inputs.ts';

const BOUND = 2_000;

/** 12,000 game scores with many equal scores and some NULLs; `id` breaks ties so the ranking is unique. */
const scores = disorderedRows(12_000, 505, { stepMs: 10, boundMs: BOUND }, (i, rng) => ({
  id: i,
  game: `g${rng.int(40)}`,
  player: `p${rng.int(900)}`,
  score: sometimesNull(rng, 0.02, rng.int(500)),
}));
const scoreSchema = { id: 'integer', game: 'string', player: 'string', score: 'integer', seq: 'integer', ts: 'timestamp' };
const scoresSource = ['scores', 'inlineSource', inline(scores, BOUND, scoreSchema)] as [string, string, Record<string, unknown>];

/** Weir sorts NULL lowest (first ascending, last descending), as SQLite does. */
const topNAppend: OracleCase = {
  name: 'Top-5 per game over an append-only stream',
  minRecords: 10_000,
  doc: pipeline(
    'oracle-top-n',
    [
      scoresSource,
      ['best', 'topN', { partitionBy: ['game'], orderBy: [{ field: 'score', direction: 'desc' }, { field: 'id', direction: 'asc' }], n: 5 }],
      ['worst', 'topN', { partitionBy: ['game'], orderBy: [{ field: 'score', direction: 'asc' }, { field: 'id', direction: 'desc' }], n: 2, rankField: 'pos' }],
      ['best_view', 'viewSink', {}],
      ['worst_view', 'viewSink', {}],
    ],
    ['scores -> best', 'best -> best_view', 'scores -> worst', 'worst -> worst_view'],
  ),
  expected: {
    best_view: `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY game ORDER BY score DESC, id ASC) AS rownum FROM scores) WHERE rownum <= 5`,
    worst_view: `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY game ORDER BY score ASC, id DESC) AS pos FROM scores) WHERE pos <= 2`,
  },
};

/**
 * Top-3 players per game by total score: the GROUP BY upstream keeps changing totals (-U/+U),
 * so ranks are retracted and rows promoted all the time. The player name breaks equal totals.
 */
const topNUpdating: OracleCase = {
  name: 'Top-3 per game over an updating stream (GROUP BY totals)',
  minRecords: 10_000,
  doc: pipeline(
    'oracle-top-n-updating',
    [
      scoresSource,
      ['totals', 'aggregate', { groupBy: ['game', 'player'], aggregates: [{ fn: 'sum', field: 'score', as: 'total' }, { fn: 'count', as: 'plays' }] }],
      ['top', 'topN', { partitionBy: ['game'], orderBy: [{ field: 'total', direction: 'desc' }, { field: 'player', direction: 'asc' }], n: 3 }],
      ['view', 'viewSink', {}],
    ],
    ['scores -> totals', 'totals -> top', 'top -> view'],
  ),
  expected: {
    view: `WITH totals AS (SELECT game, player, SUM(score) AS total, COUNT(*) AS plays FROM scores GROUP BY game, player)
      SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY game ORDER BY total DESC, player ASC) AS rownum FROM totals) WHERE rownum <= 3`,
  },
};

/** Readings with repeated ids; event times are distinct, so first/last by event time are unique. */
const readings = disorderedRows(12_000, 606, { stepMs: 10, boundMs: BOUND }, (_i, rng) => ({ device: `d${rng.int(1_500)}`, value: Math.round(rng.next() * 1e4) / 100 }));
const readingSchema = { device: 'string', value: 'number', seq: 'integer', ts: 'timestamp' };

function dedup(keep: 'first' | 'last', order: 'eventTime' | 'arrival'): OracleCase {
  // By arrival, "first" is the source order (seq); it is deterministic only with one source subtask,
  // whose channel to each dedup subtask keeps that order. By event time any parallelism works.
  const sourceParallelism = order === 'arrival' ? 1 : undefined;
  const by = order === 'arrival' ? 'seq' : 'ts';
  return {
    name: `dedup keep ${keep} by ${order}`,
    minRecords: 10_000,
    doc: pipeline(
      `oracle-dedup-${keep}-${order}`,
      [
        ['readings', 'inlineSource', inline(readings, BOUND, readingSchema), sourceParallelism],
        ['d', 'dedup', { key: ['device'], keep, order }],
        ['view', 'viewSink', {}],
      ],
      ['readings -> d', 'd -> view'],
    ),
    expected: {
      view: `SELECT device, value, seq, ts FROM
        (SELECT *, ROW_NUMBER() OVER (PARTITION BY device ORDER BY ${by} ${keep === 'first' ? 'ASC' : 'DESC'}) AS rn FROM readings) WHERE rn = 1`,
    },
  };
}

describe('oracle: Top-N and dedup equal SQL', () => {
  const lastByTime = dedup('last', 'eventTime');
  oracleTests([topNAppend, topNUpdating, dedup('first', 'eventTime'), lastByTime, dedup('first', 'arrival'), dedup('last', 'arrival')], { indexedDb: [topNUpdating] });
});
