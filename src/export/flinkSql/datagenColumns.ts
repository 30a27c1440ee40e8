/**
 * A generator of the datagen scenario as Flink's datagen connector: the `fields.<column>.*`
 * options Weir made the columns with, and a made-at column as `LOCALTIMESTAMP`, so that the
 * table Flink reads is the one the pipeline ran on (the random values differ: two generators).
 */
import type { DatagenColumn } from '../../generators/index.ts';
import { DATAGEN_NUMBER_RANGE } from '../../generators/datagen.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { durationText } from './sqlText.ts';

export const isArrivalColumn = (columns: Record<string, DatagenColumn> | undefined, c: string): boolean => columns?.[c]?.kind === 'arrival';

/** The field options of every column but the made-at ones. */
export function datagenFieldOptions(columns: Record<string, DatagenColumn> | undefined, types: Record<string, FieldType>): [string, string][] {
  const out: [string, string][] = [];
  for (const [c, t] of Object.entries(types)) {
    const spec = columns?.[c] ?? {};
    if (spec.kind === 'arrival') continue;
    const f = (option: string, v: number | string) => out.push([`fields.${c}.${option}`, String(v)]);
    if (spec.kind === 'sequence') {
      f('kind', 'sequence');
      f('start', spec.start ?? 0);
      if (spec.end !== undefined) f('end', spec.end);
    } else if (t === 'integer' || t === 'number') {
      // Written even when defaulted: Flink's own defaults are the type's whole range.
      f('min', spec.min ?? DATAGEN_NUMBER_RANGE.min);
      f('max', spec.max ?? DATAGEN_NUMBER_RANGE.max);
    } else if (t === 'string' && spec.length !== undefined) f('length', spec.length);
    else if (t === 'timestamp') out.push([`fields.${c}.max-past`, durationText(spec.maxPastMs ?? 0)]);
    if (spec.nullRate !== undefined) f('null-rate', spec.nullRate);
  }
  return out;
}
