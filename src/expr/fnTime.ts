/**
 * Flink's temporal built-ins over Weir's timestamps (epoch milliseconds, UTC). Text arguments are
 * read as Flink reads them ('yyyy-MM-dd HH:mm:ss', or the pattern given); a DATE is 'yyyy-MM-dd'
 * text, and a function given a DATE returns a DATE where Flink does (TIMESTAMPADD, FLOOR … TO).
 */
import type { FieldType } from './ast.ts';
import type { Evaluator, FunctionDef } from './functionKit.ts';
import { always } from './functionKit.ts';
import { DAY_MS, DEFAULT_TIMESTAMP, addMonths, dayOfYear, formatMillis, isoWeek, monthsBetween, parseMillis, toDateText, toMillis } from './timeText.ts';
import { finite, toNum, toStr } from './values.ts';
import { compilingServices } from './services.ts';

const FIXED_MS: Readonly<Record<string, number>> = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: DAY_MS, WEEK: 7 * DAY_MS };
const CALENDAR_MONTHS: Readonly<Record<string, number>> = { MONTH: 1, QUARTER: 3, YEAR: 12 };
export const TIMEPOINT_UNITS = ['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;
export const FLOOR_UNITS = ['SECOND', 'MINUTE', 'HOUR', 'DAY', 'MONTH', 'QUARTER', 'YEAR'] as const;
export const EXTRACT_UNITS = ['MILLENNIUM', 'CENTURY', 'DECADE', 'YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'DOY', 'DOW', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'EPOCH'] as const;

const isDateText = (v: unknown): boolean => typeof v === 'string' && /^\s*\d{4}-\d{1,2}-\d{1,2}\s*$/.test(v);

/** One field of a point in time, as EXTRACT and the date-part functions read it. */
export function datePart(unit: string, ms: number): number {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  switch (unit) {
    case 'MILLENNIUM': return Math.floor((year - 1) / 1000) + 1;
    case 'CENTURY': return Math.floor((year - 1) / 100) + 1;
    case 'DECADE': return Math.floor(year / 10);
    case 'YEAR': return year;
    case 'QUARTER': return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'MONTH': return d.getUTCMonth() + 1;
    case 'WEEK': return isoWeek(ms);
    case 'DAY': return d.getUTCDate();
    case 'DOY': return dayOfYear(ms);
    case 'DOW': return d.getUTCDay() + 1; // Sunday = 1 … Saturday = 7
    case 'HOUR': return d.getUTCHours();
    case 'MINUTE': return d.getUTCMinutes();
    case 'SECOND': return d.getUTCSeconds();
    case 'MILLISECOND': return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
    default: return Math.floor(ms / 1000); // EPOCH
  }
}

function part(unit: string): FunctionDef {
  return {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const ms = toMillis(a(row));
      return ms === null ? null : datePart(unit, ms);
    },
    type: always('integer'),
  };
}

/** The start of the unit the time falls in (UTC). */
export function floorTo(unit: string, ms: number): number {
  const fixed = FIXED_MS[unit];
  if (fixed) return Math.floor(ms / fixed) * fixed;
  const d = new Date(ms);
  const month = unit === 'MONTH' ? d.getUTCMonth() : unit === 'QUARTER' ? d.getUTCMonth() - (d.getUTCMonth() % 3) : 0;
  return Date.UTC(d.getUTCFullYear(), month, 1);
}

export function ceilTo(unit: string, ms: number): number {
  const f = floorTo(unit, ms);
  if (f === ms) return ms;
  const fixed = FIXED_MS[unit];
  return fixed ? f + fixed : addMonths(f, CALENDAR_MONTHS[unit]);
}

/** FLOOR/CEIL(t TO unit): a DATE stays a DATE. */
export function roundTime(round: (unit: string, ms: number) => number): (a: Evaluator, unit: string) => Evaluator {
  return (a, unit) => (row) => {
    const v = a(row);
    const ms = toMillis(v);
    if (ms === null) return null;
    const r = round(unit, ms);
    return isDateText(v) ? toDateText(r) : r;
  };
}

export function timestampAdd(unit: string, n: number, ms: number): number {
  const months = CALENDAR_MONTHS[unit];
  return months ? addMonths(ms, n * months) : ms + n * FIXED_MS[unit];
}

export function timestampDiff(unit: string, a: number, b: number): number {
  const months = CALENDAR_MONTHS[unit];
  if (months) return Math.trunc(monthsBetween(a, b) / months) + 0;
  return Math.trunc((b - a) / FIXED_MS[unit]) + 0;
}

/** A text argument read with the pattern argument, or with Flink's default forms when there is none. */
function parsed(text: Evaluator, pattern: Evaluator | undefined, prefix = false): Evaluator {
  if (!pattern) return (row) => toMillis(toStr(text(row)));
  return (row) => {
    const s = toStr(text(row));
    if (s === null) return null;
    const p = toStr(pattern(row));
    return p === null ? null : parseMillis(s, p, prefix);
  };
}

const temporalType = (t: FieldType | null): FieldType => (t === 'string' ? 'string' : 'timestamp');

export const TIME_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  // Flink: the watermark the evaluating operator has seen, NULL before its first one. The argument
  // names the time attribute it is the watermark of; a Weir stream has one, so it is only typed.
  CURRENT_WATERMARK: {
    min: 1,
    max: 1,
    compile: () => {
      const services = compilingServices();
      if (services === null) return () => null;
      return () => {
        const wm = services.currentWatermark();
        return wm === -Infinity ? null : wm;
      };
    },
    type: always('timestamp'),
  },
  DATE_FORMAT: {
    min: 2,
    max: 2,
    compile: ([a, f]) => (row) => {
      const ms = toMillis(a(row));
      if (ms === null) return null;
      const p = toStr(f(row));
      return p === null ? null : formatMillis(ms, p);
    },
    type: always('string'),
  },
  FROM_UNIXTIME: {
    min: 1,
    max: 2,
    compile: ([a, f]) => (row) => {
      const sec = toNum(a(row));
      if (sec === null) return null;
      const p = f ? toStr(f(row)) : DEFAULT_TIMESTAMP;
      return p === null ? null : formatMillis(Math.trunc(sec) * 1000, p);
    },
    type: always('string'),
  },
  UNIX_TIMESTAMP: {
    min: 1,
    max: 2,
    compile: ([a, f]) => {
      // SimpleDateFormat, as Flink's UNIX_TIMESTAMP: what follows the pattern (milliseconds) is ignored.
      const ms = parsed(a, f ?? (() => DEFAULT_TIMESTAMP), true);
      return (row) => {
        const v = ms(row) as number | null;
        return v === null ? null : Math.floor(v / 1000);
      };
    },
    type: always('integer'),
  },
  TO_TIMESTAMP: { min: 1, max: 2, compile: ([a, f]) => parsed(a, f), type: always('timestamp') },
  // Flink's TO_TIMESTAMP_LTZ(epoch, precision): precision 3 (the default) reads milliseconds, 0
  // seconds; the instant is the same in Weir's UTC session. Other precisions give NULL.
  TO_TIMESTAMP_LTZ: {
    min: 1,
    max: 2,
    compile: ([a, p]) =>
      (row) => {
        const v = toNum(a(row));
        const precision = p ? toNum(p(row)) : 3;
        if (v === null || precision === null) return null;
        return precision === 3 ? v : precision === 0 ? finite(v * 1000) : null;
      },
    type: always('timestamp'),
  },
  TO_DATE: {
    min: 1,
    max: 2,
    compile: ([a, f]) => {
      const ms = parsed(a, f);
      return (row) => toDateText(ms(row));
    },
    type: always('string'),
  },
  TIMESTAMPADD: {
    min: 2,
    max: 2,
    keywords: TIMEPOINT_UNITS,
    syntaxOnly: true,
    compile: ([n, t], unit) => (row) => {
      const k = toNum(n(row));
      if (k === null) return null;
      const v = t(row);
      const ms = toMillis(v);
      if (ms === null) return null;
      const r = timestampAdd(unit!, Math.trunc(k), ms);
      return isDateText(v) ? toDateText(r) : r;
    },
    type: ([, t]) => temporalType(t),
  },
  TIMESTAMPDIFF: {
    min: 2,
    max: 2,
    keywords: TIMEPOINT_UNITS,
    syntaxOnly: true,
    compile: ([a, b], unit) => (row) => {
      const x = toMillis(a(row));
      if (x === null) return null;
      const y = toMillis(b(row));
      return y === null ? null : timestampDiff(unit!, x, y);
    },
    type: always('integer'),
  },
  EXTRACT: {
    min: 1,
    max: 1,
    keywords: EXTRACT_UNITS,
    syntaxOnly: true,
    compile: ([a], unit) => (row) => {
      const ms = toMillis(a(row));
      return ms === null ? null : datePart(unit!, ms);
    },
    type: always('integer'),
  },
  YEAR: part('YEAR'),
  QUARTER: part('QUARTER'),
  MONTH: part('MONTH'),
  WEEK: part('WEEK'),
  DAYOFYEAR: part('DOY'),
  DAYOFMONTH: part('DAY'),
  DAYOFWEEK: part('DOW'),
  HOUR: part('HOUR'),
  MINUTE: part('MINUTE'),
  SECOND: part('SECOND'),
};

export const timeRoundType = (types: readonly (FieldType | null)[]): FieldType => temporalType(types[0] ?? null);
