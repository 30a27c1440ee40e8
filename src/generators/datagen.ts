import type { Row } from '../core/types.ts';
import type { Rng } from '../core/rng.ts';
import type { FieldType } from '../core/streamInfo.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { slot } from './scenario.ts';

/**
 * One column of a datagen table, as Flink's datagen connector describes it with its
 * `fields.<name>.*` options; `arrival` is the time the row is made (a computed column
 * `ts AS LOCALTIMESTAMP`), on the generator's simulated clock so that runs repeat.
 */
export interface DatagenColumn {
  kind?: 'random' | 'sequence' | 'arrival';
  /** random numbers: the range, both ends included for integers. */
  min?: number;
  max?: number;
  /** random strings: how many characters (Flink's default is 100). */
  length?: number;
  /** sequence: the first and last value; the table ends after the last. */
  start?: number;
  end?: number;
  /** random timestamps: how far before the row's arrival they may lie, in ms. */
  maxPastMs?: number;
  /** The share of rows in which the column is NULL, 0..1. */
  nullRate?: number;
}

export interface DatagenTable {
  schema: Record<string, FieldType>;
  columns: Record<string, DatagenColumn>;
}

/** Flink's default string length for random strings. */
export const DATAGEN_STRING_LENGTH = 100;
/** Range of random numbers when the column sets none (Flink's whole-type ranges make unreadable data). */
export const DATAGEN_NUMBER_RANGE = { min: 0, max: 1000 } as const;

const HEX = '0123456789abcdef';

/** How many rows the table has at most: a sequence column ends it after its last value. */
export function datagenLimit(table: DatagenTable): number {
  let limit = Infinity;
  for (const c of Object.values(table.columns)) {
    if (c.kind === 'sequence' && c.end !== undefined) limit = Math.min(limit, Math.max(0, Math.floor(c.end - (c.start ?? 0)) + 1));
  }
  return limit;
}

function value(type: FieldType, c: DatagenColumn, i: number, rng: Rng, arrival: number): unknown {
  if (c.kind === 'arrival') return arrival;
  if (c.kind === 'sequence') {
    const v = (c.start ?? 0) + i;
    return type === 'string' ? String(v) : v;
  }
  switch (type) {
    case 'integer': {
      const min = Math.ceil(c.min ?? DATAGEN_NUMBER_RANGE.min);
      const max = Math.floor(c.max ?? DATAGEN_NUMBER_RANGE.max);
      return min + rng.int(Math.max(0, max - min) + 1);
    }
    case 'number': {
      const min = c.min ?? DATAGEN_NUMBER_RANGE.min;
      const max = c.max ?? DATAGEN_NUMBER_RANGE.max;
      return min + rng.next() * (max - min);
    }
    case 'boolean':
      return rng.next() < 0.5;
    case 'timestamp':
      return arrival - rng.int(Math.max(0, Math.floor(c.maxPastMs ?? 0)) + 1);
    default: {
      let s = '';
      for (let k = 0, n = Math.max(0, Math.floor(c.length ?? DATAGEN_STRING_LENGTH)); k < n; k++) s += HEX[rng.int(16)];
      return s;
    }
  }
}

/**
 * Flink's datagen connector: every column random or a sequence, by its options. Each row is a
 * pure function of (seed, options, index) like every scenario's, so a restore replays it.
 */
export const datagen: Scenario = {
  name: 'datagen',
  summary: "Flink's datagen connector: each column random (numbers in a range, strings of a length) or a sequence, as the table's `columns` say.",
  fields: {},
  defaultKeys: 1,
  row(i: number, rng: Rng, ctx: ScenarioContext): Row {
    const table = ctx.table ?? { schema: {}, columns: {} };
    const arrival = slot(ctx, i);
    const row: Row = {};
    for (const [name, type] of Object.entries(table.schema)) {
      const c = table.columns[name] ?? {};
      // The null draw comes first and always, so a column's values do not depend on its null rate's being set.
      const isNull = rng.next() < (c.nullRate ?? 0);
      const v = value(type, c, i, rng, arrival);
      row[name] = isNull ? null : v;
    }
    return row;
  },
};
