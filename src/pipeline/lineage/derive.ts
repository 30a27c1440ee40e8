import { compileExpr } from '../../expr/index.ts';
import type { AggregateCall, OverCall } from '../kinds/aggregateCall.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import type { ColumnInput, Derivation, LineageArgs, PortLineage } from './types.ts';

/** Building blocks the kinds' `lineage` functions share, so that every kind words a step the same way. */

/** Backticks around plain names only make SQL text harder to read on a badge. */
export const readable = (expr: string): string => expr.replace(/`([A-Za-z_][A-Za-z0-9_]*)`/g, '$1');

const at = (port: string, column: string, edge?: number): ColumnInput => (edge === undefined ? { port, column } : { port, edge, column });

export const copyOf = (port: string, column: string, edge?: number): Derivation => ({ how: 'copy', from: [at(port, column, edge)] });

/** A column set by a SQL expression: a bare reference is a copy (a rename when the names differ), anything else is computed. */
export function exprDerivation(expr: string, port = 'in'): Derivation {
  let fields: string[] = [];
  let bare = false;
  try {
    const e = compileExpr(expr);
    fields = e.fields;
    bare = fields.length === 1 && e.toSql() === `\`${fields[0]}\``;
  } catch {
    // Bad syntax is a validation problem of its own; the columns it names are still the best account of where it reads.
  }
  if (bare) return copyOf(port, fields[0]);
  return { how: 'expr', from: fields.map((f) => at(port, f)), expr: readable(expr) };
}

const AGG_SQL: Record<string, string> = { count: 'COUNT', sum: 'SUM', avg: 'AVG', min: 'MIN', max: 'MAX', firstValue: 'FIRST_VALUE', lastValue: 'LAST_VALUE', listAgg: 'LISTAGG', arrayAgg: 'ARRAY_AGG', jsonArrayAgg: 'JSON_ARRAYAGG', jsonObjectAgg: 'JSON_OBJECTAGG', lag: 'LAG' };

/** `, 2, 0` of LAG(x, 2, 0): the arguments after the field that differ from LAG's defaults. */
function lagTail(call: OverCall): string {
  if (call.default !== undefined) return `, ${call.offset ?? 1}, ${JSON.stringify(call.default)}`;
  return call.offset !== undefined ? `, ${call.offset}` : '';
}

const DISTINCT_SQL: Record<string, string> = { countDistinct: 'COUNT', sumDistinct: 'SUM', avgDistinct: 'AVG', listAggDistinct: 'LISTAGG' };

/** `SUM(amount)`, `COUNT(*)`, `COUNT(DISTINCT user)`; a user aggregate is code whose reading of its field is its own. */
export function aggregateDerivation(call: AggregateCall | OverCall, port = 'in', over?: string): Derivation {
  const keyField = (call as AggregateCall).keyField;
  // JSON_OBJECTAGG's members are named by one field and valued by another: the column derives from both.
  const from = [...(keyField ? [at(port, keyField)] : []), ...(call.field ? [at(port, call.field)] : [])];
  const suffix = over ? ` OVER (${over})` : '';
  if (call.fn === 'udaf') return { how: 'code', from };
  const lagArgs = call.fn === 'lag' ? lagTail(call as OverCall) : '';
  const distinct = DISTINCT_SQL[call.fn];
  const text = distinct ? `${distinct}(DISTINCT ${call.field ?? '*'})` : `${AGG_SQL[call.fn] ?? call.fn.toUpperCase()}(${keyField ? `KEY ${keyField} VALUE ` : ''}${call.field ?? '*'}${lagArgs})`;
  return { how: 'aggregate', from, expr: text + suffix };
}

/** A duration as people read it on a badge: 500 ms, 10 s, 5 min, 1 h, 1 d. */
export function durationText(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '?';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms !== 0 && ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

export interface WindowShape {
  type: string;
  sizeMs?: number;
  slideMs?: number;
  stepMs?: number;
  gapMs?: number;
  offsetMs?: number;
}

/** The window function in Flink SQL's order of arguments: HOP(time, slide, size), CUMULATE(time, step, size). */
export function windowText(w: WindowShape, time: string): string {
  const args = w.type === 'hop' ? [w.slideMs, w.sizeMs] : w.type === 'cumulate' ? [w.stepMs, w.sizeMs] : w.type === 'session' ? [w.gapMs] : [w.sizeMs];
  const offset = w.offsetMs ? `, offset ${durationText(w.offsetMs)}` : '';
  return `${w.type.toUpperCase()}(${[time, ...args.map(durationText)].join(', ')}${offset})`;
}

export const WINDOW_BOUNDS = ['window_start', 'window_end', 'window_time'] as const;

/**
 * The columns of an input as a windowing operator sees them: every input column as a copy, plus the window
 * bounds a window function adds from the event time (unless the windows come from the input's own columns).
 */
export function windowedView(w: WindowShape | undefined, input: StreamInfo | undefined, port: string, edge?: number): PortLineage {
  const view: PortLineage = {};
  for (const f of Object.keys(input?.fields ?? {})) view[f] = copyOf(port, f, edge);
  if (w && w.type !== 'columns' && input?.fields) {
    const time = input.eventTime;
    for (const c of WINDOW_BOUNDS) view[c] = { how: 'window', from: time ? [at(port, time, edge)] : [], expr: windowText(w, time ?? '?') };
  }
  return view;
}

const unknown = (): Derivation => ({ how: 'unknown', from: [] });

/** Explains each column of `out` from a view of the inputs; a column the view lacks is reported as unknown, never guessed. */
export function fromView(out: StreamInfo | undefined, view: PortLineage, own: PortLineage = {}): PortLineage {
  const res: PortLineage = {};
  for (const f of Object.keys(out?.fields ?? {})) res[f] = own[f] ?? view[f] ?? unknown();
  return res;
}

/** Every output column is user code's; the columns are declared, how they are computed is not. */
export function byUserCode<P>({ outputs }: LineageArgs<P>): Record<string, PortLineage> {
  return Object.fromEntries(Object.entries(outputs).map(([port, s]) => [port, Object.fromEntries(Object.keys(s.fields ?? {}).map((f) => [f, { how: 'code', from: [] } as Derivation]))]));
}

/**
 * What a kind without a lineage of its own does: sources originate their columns; any other operator passes
 * each column through from the first input port that has a column of that name (filter, key by, dedup, sinks).
 */
export function defaultLineage<P>({ inputs, outputs }: LineageArgs<P>, isSource: boolean): Record<string, PortLineage> {
  const res: Record<string, PortLineage> = {};
  for (const [port, s] of Object.entries(outputs)) {
    res[port] = {};
    for (const f of Object.keys(s.fields ?? {})) {
      if (isSource) {
        res[port][f] = { how: 'source', from: [] };
        continue;
      }
      const inPort = Object.keys(inputs).find((p) => inputs[p][0]?.fields && f in inputs[p][0].fields!);
      res[port][f] = inPort ? copyOf(inPort, f) : unknown();
    }
  }
  return res;
}
