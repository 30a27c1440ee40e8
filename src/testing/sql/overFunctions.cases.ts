/**
 * LAG, FIRST_VALUE and LAST_VALUE, over windows and as group aggregates, on the `readings` table.
 * SQLite's window functions differ from Flink's streaming ones here (Flink's FIRST_VALUE and
 * LAST_VALUE skip NULLs, and in the frameless window LAG gets, rows of one time share one result),
 * so every expected row is worked out by hand from Flink's semantics, in the comments beside it.
 */
import { READINGS_DDL, START } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const at = (s: number) => START + s * 1000;
/** Rows from [sensor, temp, seconds, ...the computed columns]. */
const rows = (names: string[], data: unknown[][]) => (): Row[] => data.map(([sensor, temp, s, ...rest]) => ({ sensor, temp, ts: at(s as number), ...Object.fromEntries(names.map((n, i) => [n, rest[i]])) }));

export const overFunctionCases: SqlOracleCase[] = [
  {
    name: 'over: LAG with an offset and a default, NULL readings, ties and three partitions',
    sql: `${READINGS_DDL}${printSink('temp_changes', 'sensor STRING, temp DOUBLE, ts TIMESTAMP(3), prev_temp DOUBLE, temp_2_back DOUBLE')}INSERT INTO temp_changes
SELECT sensor, temp, ts,
  LAG(temp) OVER (PARTITION BY sensor ORDER BY ts) AS prev_temp,
  LAG(temp, 2, CAST(-1 AS DOUBLE)) OVER (PARTITION BY sensor ORDER BY ts) AS temp_2_back
FROM readings;`,
    expected: {
      temp_changes: rows(['prev_temp', 'temp_2_back'], [
        // s1 in time order: 20 @10, 22 @17 (arrived after @20), NULL @20, 25 and 26 @30, 24 @40.
        ['s1', 20, 10, null, -1],
        ['s1', 22, 17, 20, -1],
        ['s1', null, 20, 22, 20],
        // LAG's window is RANGE … CURRENT ROW: both rows @30 are in before either leaves, so both
        // read back from 26, the last to arrive: one back is 25, two back is the NULL reading.
        ['s1', 25, 30, 25, null],
        ['s1', 26, 30, 25, null],
        ['s1', 24, 40, 26, 25],
        ['s2', 15, 12, null, -1],
        ['s2', 16, 25, 15, -1],
        ['s2', null, 33, 16, 15],
        // The row before exists and its reading is NULL: LAG returns that NULL, not the default.
        ['s3', null, 31, null, -1],
        ['s3', 30, 41, null, -1],
      ]),
    },
  },
  {
    name: 'over: LAG and COUNT inside expressions (a difference, a COALESCE, a CAST), ties and NULL readings',
    sql: `${READINGS_DDL}${printSink('temp_deltas', 'sensor STRING, ts TIMESTAMP(3), delta DOUBLE, back2x DOUBLE, n_label STRING')}INSERT INTO temp_deltas
SELECT sensor, ts,
  temp - LAG(temp) OVER w AS delta,
  COALESCE(LAG(temp, 2, CAST(-1 AS DOUBLE)) OVER w, 0) * 2 AS back2x,
  'n=' || CAST(COUNT(*) OVER w AS STRING) AS n_label
FROM readings
WINDOW w AS (PARTITION BY sensor ORDER BY ts);`,
    expected: {
      // The LAG values of the first case, and the running count of the second, put through each expression.
      temp_deltas: () =>
        [
          ['s1', 10, null, -2, 1],
          ['s1', 17, 2, -2, 2],
          ['s1', 20, null, 40, 3],
          ['s1', 30, 0, 0, 5],
          ['s1', 30, 1, 0, 5],
          ['s1', 40, -2, 50, 6],
          ['s2', 12, null, -2, 1],
          ['s2', 25, 1, -2, 2],
          ['s2', 33, null, 30, 3],
          ['s3', 31, null, -2, 1],
          ['s3', 41, null, -2, 2],
        ].map(([sensor, s, delta, back2x, n]) => ({ sensor, ts: at(s as number), delta, back2x, n_label: `n=${n}` })),
    },
  },
  {
    name: 'over: FIRST_VALUE and LAST_VALUE skip NULLs beside a running COUNT, ties seeing each other',
    sql: `${READINGS_DDL}${printSink('temp_range', 'sensor STRING, ts TIMESTAMP(3), first_temp DOUBLE, last_temp DOUBLE, n BIGINT')}INSERT INTO temp_range
SELECT sensor, ts, first_temp, last_temp, n
FROM (
  SELECT sensor, temp, ts,
    FIRST_VALUE(temp) OVER w AS first_temp,
    LAST_VALUE(temp) OVER w AS last_temp,
    COUNT(*) OVER w AS n
  FROM readings
  WINDOW w AS (PARTITION BY sensor ORDER BY ts)
);`,
    expected: {
      temp_range: () =>
        [
          ['s1', 10, 20, 20, 1],
          ['s1', 17, 20, 22, 2],
          // The NULL reading counts as a row but is not a value.
          ['s1', 20, 20, 22, 3],
          ['s1', 30, 20, 26, 5],
          ['s1', 30, 20, 26, 5],
          ['s1', 40, 20, 24, 6],
          ['s2', 12, 15, 15, 1],
          ['s2', 25, 15, 16, 2],
          ['s2', 33, 15, 16, 3],
          ['s3', 31, null, null, 1],
          ['s3', 41, 30, 30, 2],
        ].map(([sensor, s, first_temp, last_temp, n]) => ({ sensor, ts: at(s as number), first_temp, last_temp, n })),
    },
  },
  {
    name: 'over: FIRST_VALUE and LAST_VALUE over ROWS BETWEEN 1 PRECEDING, one partition, ties in arrival order',
    sql: `${READINGS_DDL}${printSink('pairs', 'sensor STRING, temp DOUBLE, ts TIMESTAMP(3), first2 DOUBLE, last2 DOUBLE')}INSERT INTO pairs
SELECT sensor, temp, ts,
  FIRST_VALUE(temp) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS first2,
  LAST_VALUE(temp) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS last2
FROM readings;`,
    expected: {
      pairs: rows(['first2', 'last2'], [
        // Each frame is the row before (in time order, equal times in arrival order) and the row.
        ['s1', 20, 10, 20, 20],
        ['s2', 15, 12, 20, 15],
        ['s1', 22, 17, 15, 22],
        ['s1', null, 20, 22, 22],
        ['s2', 16, 25, 16, 16],
        ['s1', 25, 30, 16, 25],
        ['s1', 26, 30, 25, 26],
        ['s3', null, 31, 26, 26],
        ['s2', null, 33, null, null],
        ['s1', 24, 40, 24, 24],
        ['s3', 30, 41, 24, 30],
      ]),
    },
  },
  {
    name: 'group by: FIRST_VALUE and LAST_VALUE per sensor in arrival order, skipping NULLs',
    sql: `${READINGS_DDL}CREATE TABLE sensor_ends (sensor STRING, first_temp DOUBLE, last_temp DOUBLE, PRIMARY KEY (sensor) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'sensor_ends', 'key.format' = 'json', 'value.format' = 'json');
INSERT INTO sensor_ends
SELECT sensor, FIRST_VALUE(temp) AS first_temp, LAST_VALUE(temp) AS last_temp
FROM readings
GROUP BY sensor;`,
    expected: {
      // Arrival (file) order, not event time: s1 reads 20, NULL, 22, 25, 26, 24; s2 15, 16, NULL; s3 NULL, 30.
      sensor_ends: () => [
        { sensor: 's1', first_temp: 20, last_temp: 24 },
        { sensor: 's2', first_temp: 15, last_temp: 16 },
        { sensor: 's3', first_temp: 30, last_temp: 30 },
      ],
    },
  },
  {
    name: 'window TVF: FIRST_VALUE and LAST_VALUE per sensor and 20-second tumble, in arrival order',
    sql: `${READINGS_DDL}${printSink('window_ends', 'sensor STRING, window_start TIMESTAMP(3), first_temp DOUBLE, last_temp DOUBLE')}INSERT INTO window_ends
SELECT sensor, window_start, FIRST_VALUE(temp) AS first_temp, LAST_VALUE(temp) AS last_temp
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '20' SECOND))
GROUP BY sensor, window_start, window_end;`,
    expected: {
      window_ends: () =>
        [
          // s1 [0, 20): 20 arrived before 22.
          ['s1', 0, 20, 22],
          // s1 [20, 40): NULL, 25, 26 in arrival order.
          ['s1', 20, 25, 26],
          ['s1', 40, 24, 24],
          ['s2', 0, 15, 15],
          ['s2', 20, 16, 16],
          // A window whose only reading is NULL has no first or last value.
          ['s3', 20, null, null],
          ['s3', 40, 30, 30],
        ].map(([sensor, s, first_temp, last_temp]) => ({ sensor, window_start: at(s as number), first_temp, last_temp })),
    },
  },
];
