/**
 * A `'connector' = 'datagen'` table → the generator's datagen scenario, so that a script pasted
 * from a Flink tutorial runs at once. Its `fields.<column>.*` options become the columns' specs;
 * a computed column of the current time (`ts AS LOCALTIMESTAMP`, the tutorials' way to give
 * datagen an event time) becomes the time the generator makes the row, on its simulated clock.
 */
import type { DatagenColumn } from '../../../generators/index.ts';
import { datagenLimit } from '../../../generators/datagen.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import type { TableColumn, TableDef } from './ddl.ts';
import type { Col } from './model.ts';
import { fail } from './model.ts';
import { durationMs } from './settings.ts';

/** Rows a datagen table without 'number-of-rows' gets: Flink's would never end. */
export const UNBOUNDED_DATAGEN_ROWS = 1000;
/** Flink's datagen default rate. */
const DEFAULT_ROWS_PER_SECOND = 10_000;

const CLOCK = /^(LOCALTIMESTAMP|CURRENT_TIMESTAMP|NOW\(\)|CURRENT_ROW_TIMESTAMP\(\)|LOCALTIMESTAMP\(\d\)|CURRENT_TIMESTAMP\(\d\))$/i;

/** A computed column that reads the current time: in a datagen table, the time its row is made. */
export const isClockColumn = (c: TableColumn): boolean => !!c.computed && CLOCK.test(c.computed.getText());

/** The columns as the generator sees them: clock columns become made ones, timestamps each. */
export function datagenColumns(columns: readonly TableColumn[]): TableColumn[] {
  return columns.map((c) => (isClockColumn(c) ? { ...c, computed: null, type: 'timestamp' } : c));
}

const FIELD_OPTIONS: Record<string, keyof DatagenColumn> = { min: 'min', max: 'max', length: 'length', start: 'start', end: 'end', 'null-rate': 'nullRate' };

/** The generatorSource params of a datagen table whose physical columns are `physical`. */
export function datagenParams(t: TableDef, physical: readonly Col[], clock: ReadonlySet<string>, warn: (at: Tree, msg: string) => void): Record<string, unknown> {
  const names = new Set(physical.map((c) => c.field));
  const columns: Record<string, DatagenColumn> = {};
  for (const name of clock) columns[name] = { kind: 'arrival' };
  for (const [key, value] of Object.entries(t.options)) {
    const m = /^fields\.(.+)\.([a-z-]+)$/.exec(key);
    if (!m) continue;
    const [, col, option] = m;
    if (!names.has(col)) fail(t.at, `'${key}'`, `\`${col}\` is not a column of \`${t.name}\`; its columns are ${[...names].join(', ')}`);
    const spec = (columns[col] ??= {});
    if (option === 'kind') {
      if (value !== 'random' && value !== 'sequence') fail(t.at, `'${key}'`, `datagen's kinds are 'random' and 'sequence', not '${value}'`);
      spec.kind = value;
    } else if (option === 'max-past') {
      spec.maxPastMs = durationMs(value) ?? fail(t.at, `'${key}'`, `expected a duration such as '5 s', found '${value}'`);
    } else if (FIELD_OPTIONS[option]) {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) fail(t.at, `'${key}'`, `expected a number, found '${value}'`);
      (spec as Record<string, number>)[FIELD_OPTIONS[option]] = n;
    } else warn(t.at, `datagen option '${key}' is not read by Weir; the column is made as it would be without it`);
  }
  for (const [col, spec] of Object.entries(columns)) {
    if (spec.kind === 'sequence' && spec.end === undefined) fail(t.at, `'fields.${col}.kind' = 'sequence'`, `a sequence needs its last value: add 'fields.${col}.end'`);
  }
  const rows = t.options['number-of-rows'];
  const rate = t.options['rows-per-second'];
  const bounded = rows !== undefined || Object.values(columns).some((c) => c.kind === 'sequence');
  if (rows !== undefined && !/^\d+$/.test(rows)) fail(t.at, "'number-of-rows'", `expected a whole number, found '${rows}'`);
  if (rate !== undefined && !(Number(rate) > 0)) fail(t.at, "'rows-per-second'", `expected a positive number, found '${rate}'`);
  if (!bounded) warn(t.at, `\`${t.name}\` (datagen) has no 'number-of-rows' and no sequence column, so in Flink it never ends; Weir makes ${UNBOUNDED_DATAGEN_ROWS} rows: set 'number-of-rows' for another count`);
  const schema = Object.fromEntries(physical.map((c) => [c.field, c.type ?? 'string']));
  const limit = datagenLimit({ schema, columns });
  return {
    scenario: 'datagen',
    count: rows !== undefined ? Math.min(Number(rows), limit) : bounded ? limit : UNBOUNDED_DATAGEN_ROWS,
    ratePerSec: rate !== undefined ? Number(rate) : DEFAULT_ROWS_PER_SECOND,
    schema,
    ...(Object.keys(columns).length ? { columns } : {}),
  };
}
