import type { Element, Row } from './types.ts';

/**
 * Where a record came from: the line of a source's input it was read from, packed with the
 * source's slot (its index among the plan's sources) into one number, `Element.at`. One number
 * field costs the hot path almost nothing and crosses a worker boundary as one typed column;
 * sources set it only when the pipeline runs user code (see SourceTask), so other pipelines keep
 * their elements exactly as they were.
 *
 * Operators that make one record out of one record (map, filter, flatMap, project, keyBy, union,
 * broadcast enrichment) keep it; operators that combine records (aggregates, joins, windows) do
 * not, since their results come from many lines and no single line is the honest answer.
 */
const SLOTS = 1 << 16;
/** Lines beyond this are not tracked (the packed number would lose precision). */
const MAX_LINE = Math.floor(Number.MAX_SAFE_INTEGER / SLOTS);

/** The packed origin of line `line` (1-based) of source slot `slot`, or undefined when it cannot be packed. */
export function packOrigin(slot: number, line: number): number | undefined {
  return slot >= 0 && slot < SLOTS && line >= 1 && line <= MAX_LINE ? line * SLOTS + slot : undefined;
}

export const originSlot = (at: number): number => at % SLOTS;
export const originLine = (at: number): number => Math.floor(at / SLOTS);

/**
 * A record made from `el` alone: it keeps `el`'s kind, time and origin. Elements without an
 * origin stay three-field objects, so pipelines without user code keep one element shape.
 */
export function derived(el: Element, row: Row): Element {
  const at = el.at;
  return at === undefined ? { kind: el.kind, row, ts: el.ts } : { kind: el.kind, row, ts: el.ts, at };
}
