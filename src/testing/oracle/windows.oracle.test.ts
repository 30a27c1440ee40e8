import { describe } from 'vitest';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { disorderedRows, inline, pipeline, sometimesNull } from './inputs.ts';

const BOUND = 3_000;

/** 12,000 sensor readings over 5 minutes of event time, up to 3 s out of order. */
const readings = disorderedRows(12_000, 303, { stepMs: 25, boundMs: BOUND }, (_i, rng) => ({
  sensor: `s${rng.int(8)}`,
  temp: sometimesNull(rng, 0.03, Math.round((rng.next() * 40 - 5) * 10) / 10),
  status: rng.pick(['ok', 'ok', 'ok', 'warn', 'fail']),
}));
const schema = { sensor: 'string', temp: 'number', status: 'string', seq: 'integer', ts: 'timestamp' };

const aggregates = [
  { fn: 'count', as: 'n' },
  { fn: 'sum', field: 'temp', as: 'sum_temp' },
  { fn: 'avg', field: 'temp', as: 'avg_temp' },
  { fn: 'min', field: 'temp', as: 'min_temp' },
  { fn: 'max', field: 'temp', as: 'max_temp' },
  { fn: 'countDistinct', field: 'status', as: 'statuses' },
];
const aggregatesSql = 'COUNT(*) AS n, SUM(temp) AS sum_temp, AVG(temp) AS avg_temp, MIN(temp) AS min_temp, MAX(temp) AS max_temp, COUNT(DISTINCT status) AS statuses';

const source = ['readings', 'inlineSource', inline(readings, BOUND, schema)] as [string, string, Record<string, unknown>];
const windowColumns = 'window_start, window_end, window_end - 1 AS window_time';

/** Window starts are arithmetic on the (positive, integer) event time: start = ts − ts mod size. */
const tumble: OracleCase = {
  name: 'tumble 10 s',
  minRecords: 10_000,
  doc: pipeline('oracle-tumble', [source, ['w', 'window', { type: 'tumble', sizeMs: 10_000, groupBy: ['sensor'], aggregates }], ['view', 'viewSink', {}]], ['readings -> w', 'w -> view']),
  expected: {
    view: `SELECT sensor, ${windowColumns}, ${aggregatesSql} FROM
      (SELECT *, ts - ts % 10000 AS window_start, ts - ts % 10000 + 10000 AS window_end FROM readings)
      GROUP BY sensor, window_start`,
  },
};

/** A hop of 30 s every 10 s: each reading belongs to the 3 windows starting at its last slide boundary and the 2 before. */
const hop: OracleCase = {
  name: 'hop 30 s / 10 s',
  minRecords: 10_000,
  doc: pipeline('oracle-hop', [source, ['w', 'window', { type: 'hop', sizeMs: 30_000, slideMs: 10_000, groupBy: ['sensor'], aggregates }], ['view', 'viewSink', {}]], ['readings -> w', 'w -> view']),
  expected: {
    view: `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < 30000 / 10000),
      assigned AS (SELECT r.*, r.ts - r.ts % 10000 - k.i * 10000 AS window_start FROM readings r CROSS JOIN k)
      SELECT sensor, window_start, window_start + 30000 AS window_end, window_start + 29999 AS window_time, ${aggregatesSql}
      FROM assigned GROUP BY sensor, window_start`,
  },
};

/**
 * A hop of 25 s every 10 s whose calls all merge, so windows are kept as 5 s slices: 2 or 3 windows
 * per reading (those of the last 3 slide boundaries that still contain it). SUM/AVG over the integer
 * `seq`; MIN/MAX over the fractional `temp`.
 */
const mergeable = [
  { fn: 'count', as: 'n' },
  { fn: 'count', field: 'temp', as: 'n_temp' },
  { fn: 'sum', field: 'seq', as: 'sum_seq' },
  { fn: 'avg', field: 'seq', as: 'avg_seq' },
  { fn: 'min', field: 'temp', as: 'min_temp' },
  { fn: 'max', field: 'temp', as: 'max_temp' },
];
const hopSliced: OracleCase = {
  name: 'hop 25 s / 10 s, calls that merge (sliced)',
  minRecords: 10_000,
  doc: pipeline('oracle-hop-sliced', [source, ['w', 'window', { type: 'hop', sizeMs: 25_000, slideMs: 10_000, groupBy: ['sensor'], aggregates: mergeable }], ['view', 'viewSink', {}]], ['readings -> w', 'w -> view']),
  expected: {
    view: `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < 3),
      assigned AS (SELECT r.*, r.ts - r.ts % 10000 - k.i * 10000 AS window_start FROM readings r CROSS JOIN k)
      SELECT sensor, window_start, window_start + 25000 AS window_end, window_start + 24999 AS window_time,
        COUNT(*) AS n, COUNT(temp) AS n_temp, SUM(seq) AS sum_seq, AVG(seq) AS avg_seq, MIN(temp) AS min_temp, MAX(temp) AS max_temp
      FROM assigned WHERE window_start + 25000 > ts GROUP BY sensor, window_start`,
  },
};

/** Cumulate 60 s in steps of 15 s: a reading counts in every window of its minute that ends after it. */
const cumulate: OracleCase = {
  name: 'cumulate 60 s / 15 s',
  minRecords: 10_000,
  doc: pipeline('oracle-cumulate', [source, ['w', 'window', { type: 'cumulate', sizeMs: 60_000, stepMs: 15_000, groupBy: ['sensor'], aggregates }], ['view', 'viewSink', {}]], ['readings -> w', 'w -> view']),
  expected: {
    view: `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i + 1 <= 60000 / 15000),
      assigned AS (SELECT r.*, r.ts - r.ts % 60000 AS window_start, r.ts - r.ts % 60000 + k.i * 15000 AS window_end
        FROM readings r JOIN k ON r.ts < r.ts - r.ts % 60000 + k.i * 15000)
      SELECT sensor, ${windowColumns}, ${aggregatesSql} FROM assigned GROUP BY sensor, window_start, window_end`,
  },
};

/**
 * Sessions with a 400 ms gap per sensor. Flink merges windows that merely touch, so a reading
 * starts a new session only when it is more than the gap after the previous one.
 */
const session: OracleCase = {
  name: 'session 400 ms gap',
  minRecords: 10_000,
  doc: pipeline('oracle-session', [source, ['w', 'window', { type: 'session', gapMs: 400, groupBy: ['sensor'], aggregates }], ['view', 'viewSink', {}]], ['readings -> w', 'w -> view']),
  expected: {
    view: `WITH marked AS (SELECT *, CASE WHEN ts - LAG(ts) OVER (PARTITION BY sensor ORDER BY ts) <= 400 THEN 0 ELSE 1 END AS opens FROM readings),
      numbered AS (SELECT *, SUM(opens) OVER (PARTITION BY sensor ORDER BY ts ROWS UNBOUNDED PRECEDING) AS session FROM marked)
      SELECT sensor, MIN(ts) AS window_start, MAX(ts) + 400 AS window_end, MAX(ts) + 399 AS window_time, ${aggregatesSql}
      FROM numbered GROUP BY sensor, session`,
  },
};

describe('oracle: event-time windows equal SQL', () => {
  oracleTests([tumble, hop, hopSliced, cumulate, session], { indexedDb: [hopSliced, session] });
});
