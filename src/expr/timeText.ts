/**
 * Timestamps as text, in Weir's session time zone, UTC (as the exported scripts SET
 * 'table.local-time-zone' = 'UTC'). A Weir timestamp is epoch milliseconds; a DATE is its
 * 'yyyy-MM-dd' text, which sorts and compares as dates do.
 *
 * Patterns are Java DateTimeFormatter patterns as Flink reads them in DATE_FORMAT, TO_TIMESTAMP,
 * UNIX_TIMESTAMP and FROM_UNIXTIME: y M d H h k K m s S E a D and '…' quoted text.
 */
import { toNum } from './values.ts';

export const DAY_MS = 86_400_000;
export const DEFAULT_TIMESTAMP = 'yyyy-MM-dd HH:mm:ss';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Part = { letter: string; width: number } | { text: string };

const LETTERS = new Set('yMdHhkKmsSEaD');
const patternCache = new Map<string, Part[] | string>();

/** The pattern's parts, or a description of its first letter Weir does not read. */
export function compilePattern(pattern: string): Part[] | string {
  const hit = patternCache.get(pattern);
  if (hit !== undefined) return hit;
  const parts: Part[] = [];
  let problem: string | null = null;
  for (let i = 0; i < pattern.length && problem === null; ) {
    const c = pattern[i];
    if (c === "'") {
      const close = pattern.indexOf("'", i + 1);
      if (close === i + 1) parts.push({ text: "'" });
      else parts.push({ text: pattern.slice(i + 1, close < 0 ? pattern.length : close) });
      i = close < 0 ? pattern.length : close + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      if (!LETTERS.has(c)) problem = `pattern letter '${c}' is not read (Weir reads y M d H h k K m s S E a D)`;
      parts.push({ letter: c, width: j - i });
      i = j;
    } else {
      parts.push({ text: c });
      i++;
    }
  }
  const out = problem ?? parts;
  if (patternCache.size > 256) patternCache.clear();
  patternCache.set(pattern, out);
  return out;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** Epoch ms as text in UTC; null for a pattern with letters Weir does not read. */
export function formatMillis(ms: number, pattern: string): string | null {
  const parts = compilePattern(pattern);
  if (typeof parts === 'string') return null;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  let out = '';
  for (const p of parts) {
    if ('text' in p) {
      out += p.text;
      continue;
    }
    const w = p.width;
    switch (p.letter) {
      case 'y': {
        const y = d.getUTCFullYear();
        out += w === 2 ? pad(y % 100, 2) : pad(y, w);
        break;
      }
      case 'M': {
        const m = d.getUTCMonth();
        out += w >= 4 ? MONTHS[m] : w === 3 ? MONTHS[m].slice(0, 3) : pad(m + 1, w);
        break;
      }
      case 'd': out += pad(d.getUTCDate(), w); break;
      case 'D': out += pad(dayOfYear(ms), w); break;
      case 'H': out += pad(d.getUTCHours(), w); break;
      case 'k': out += pad(d.getUTCHours() || 24, w); break;
      case 'K': out += pad(d.getUTCHours() % 12, w); break;
      case 'h': out += pad(d.getUTCHours() % 12 || 12, w); break;
      case 'm': out += pad(d.getUTCMinutes(), w); break;
      case 's': out += pad(d.getUTCSeconds(), w); break;
      // Fraction of a second: S is tenths, SS hundredths, SSS milliseconds, more digits are zeros.
      case 'S': out += pad(d.getUTCMilliseconds(), 3).slice(0, Math.min(w, 3)).padEnd(w, '0'); break;
      case 'E': out += w >= 4 ? DAYS[d.getUTCDay()] : DAYS[d.getUTCDay()].slice(0, 3); break;
      case 'a': out += d.getUTCHours() < 12 ? 'AM' : 'PM'; break;
    }
  }
  return out;
}

/**
 * Text in `pattern` (UTC) → epoch ms, or null when it does not match. `prefix`: text after the
 * pattern is ignored, as java.text.SimpleDateFormat does (Flink's UNIX_TIMESTAMP reads with it).
 */
export function parseMillis(text: string, pattern: string, prefix = false): number | null {
  const parts = compilePattern(pattern);
  if (typeof parts === 'string') return null;
  let i = 0;
  let y = 1970, mo = 1, day = 1, h = 0, mi = 0, s = 0, ms = 0, pm: boolean | null = null, h12 = false;
  const digits = (max: number, exact: boolean): number | null => {
    let j = i;
    while (j < text.length && j - i < max && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    if (j === i || (exact && j - i !== max)) return null;
    const v = Number(text.slice(i, j));
    i = j;
    return v;
  };
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if ('text' in p) {
      if (!text.startsWith(p.text, i)) return null;
      i += p.text.length;
      continue;
    }
    // A field directly followed by another field has a fixed width; otherwise it reads its digits.
    const next = parts[k + 1];
    const fixed = next !== undefined && 'letter' in next;
    let v: number | null;
    switch (p.letter) {
      case 'y': v = digits(p.width === 2 ? 2 : fixed ? p.width : 9, fixed || p.width === 2); if (v !== null) y = p.width === 2 ? 2000 + v : v; break;
      case 'M':
        if (p.width >= 3) {
          const idx = MONTHS.findIndex((m) => text.startsWith(p.width === 3 ? m.slice(0, 3) : m, i));
          if (idx < 0) return null;
          i += p.width === 3 ? 3 : MONTHS[idx].length;
          v = idx + 1;
        } else v = digits(fixed ? p.width : 2, fixed);
        if (v !== null) mo = v;
        break;
      case 'd': v = digits(fixed ? p.width : 2, fixed); if (v !== null) day = v; break;
      case 'H': case 'k': v = digits(fixed ? p.width : 2, fixed); if (v !== null) h = p.letter === 'k' && v === 24 ? 0 : v; break;
      case 'h': case 'K': v = digits(fixed ? p.width : 2, fixed); if (v !== null) { h = v % 12; h12 = true; } break;
      case 'm': v = digits(fixed ? p.width : 2, fixed); if (v !== null) mi = v; break;
      case 's': v = digits(fixed ? p.width : 2, fixed); if (v !== null) s = v; break;
      case 'S': {
        const from = i;
        v = digits(fixed ? p.width : 9, fixed);
        if (v !== null) ms = Math.floor(Number(`0.${text.slice(from, i)}`) * 1000 + 1e-6);
        break;
      }
      case 'a': {
        const word = text.slice(i, i + 2).toUpperCase();
        if (word !== 'AM' && word !== 'PM') return null;
        pm = word === 'PM';
        i += 2;
        v = 0;
        break;
      }
      case 'E': {
        const idx = DAYS.findIndex((dname) => text.startsWith(p.width >= 4 ? dname : dname.slice(0, 3), i));
        if (idx < 0) return null;
        i += p.width >= 4 ? DAYS[idx].length : 3;
        v = 0;
        break;
      }
      default: v = digits(3, false); break; // D: the day of the year is implied by the date
    }
    if (v === null) return null;
  }
  if (i !== text.length && !prefix) return null;
  if (h12 && pm) h += 12;
  if (mo < 1 || mo > 12 || day < 1 || day > daysInMonth(y, mo - 1) || h > 23 || mi > 59 || s > 59) return null;
  return Date.UTC(y, mo - 1, day, h, mi, s, ms);
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z)?$/;

/**
 * A value as a point in time: epoch ms stay as they are; text in Flink's default forms
 * 'yyyy-MM-dd[ HH:mm[:ss[.fff]]]' (or ISO with T) is read in UTC. Anything else is NULL.
 */
export function toMillis(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return toNum(v);
  const m = ISO.exec(v.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo - 1)) return null;
  const h = Number(m[4] ?? 0), mi = Number(m[5] ?? 0), s = Number(m[6] ?? 0);
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000 + 1e-6) : 0;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/** A DATE: the 'yyyy-MM-dd' text of the day (UTC) the value falls on. */
export function toDateText(v: unknown): string | null {
  const ms = toMillis(v);
  return ms === null ? null : formatMillis(Math.floor(ms / DAY_MS) * DAY_MS, 'yyyy-MM-dd');
}

export function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

export function dayOfYear(ms: number): number {
  const d = new Date(ms);
  return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** ISO-8601 week of the year (weeks start on Monday; week 1 holds the year's first Thursday), as Flink's WEEK. */
export function isoWeek(ms: number): number {
  const d = new Date(Math.floor(ms / DAY_MS) * DAY_MS);
  const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
  const thursday = d.getTime() + (3 - dow) * DAY_MS;
  const yearStart = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 1);
  return Math.floor((thursday - yearStart) / DAY_MS / 7) + 1;
}

/** Adds calendar months as java.time does: the day is clamped to the new month's length. */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day) + (ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** Whole calendar months from a to b, truncated toward zero (TIMESTAMPDIFF(MONTH, a, b)). */
export function monthsBetween(a: number, b: number): number {
  const da = new Date(a);
  const db = new Date(b);
  let months = (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + (db.getUTCMonth() - da.getUTCMonth());
  if (months > 0 && addMonths(a, months) > b) months--;
  else if (months < 0 && addMonths(a, months) < b) months++;
  return months;
}
