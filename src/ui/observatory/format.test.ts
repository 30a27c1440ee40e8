import { describe, expect, it } from 'vitest';
import { entriesOf, fmtBytes, fmtKey, fmtMs, fmtRate, fmtRow, fmtTime, preview, summarize } from './format.ts';

describe('observatory formatting', () => {
  it('formats sizes, rates and durations', () => {
    expect(fmtBytes(512)).toBe('512 B');
    expect(fmtBytes(2048)).toBe('2.0 KiB');
    expect(fmtBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(fmtRate(0)).toBe('0/s');
    expect(fmtRate(2.345)).toBe('2.3/s');
    expect(fmtRate(25_000)).toBe('25.0k/s');
    expect(fmtMs(0)).toBe('< 1 ms'); // job time ticks in whole ms
    expect(fmtMs(0.5)).toBe('0.50 ms');
    expect(fmtMs(1.24)).toBe('1.2 ms');
    expect(fmtMs(12.4)).toBe('12 ms');
    expect(fmtMs(1500)).toBe('1.50 s');
    expect(fmtMs(null)).toBe('—');
  });

  it('shows epoch times as a UTC time of day and small times as numbers', () => {
    expect(fmtTime(Date.UTC(2024, 0, 1, 12, 30, 5, 250))).toBe('12:30:05.250');
    expect(fmtTime(4999)).toBe('4999');
    expect(fmtTime(null)).toBe('—');
    expect(fmtTime(-Infinity)).toBe('—');
    expect(fmtTime(Infinity)).toBe('end');
  });

  it('formats keys and rows as people write them', () => {
    expect(fmtKey(['alice'])).toBe('alice');
    expect(fmtKey(['paris', 3])).toBe('(paris, 3)');
    expect(fmtKey(null)).toBe('NULL');
    expect(fmtRow({ revenue: 358.68000000000006 })).toBe('revenue=358.68');
    expect(fmtRow({ id: 1, who: 'bo', paid: null })).toBe('id=1 who=bo paid=NULL');
    expect(fmtRow({ text: 'x'.repeat(50) }, 20)).toHaveLength(20);
  });

  it('previews lists and maps in one line and lets the nested ones expand', () => {
    expect(summarize([1, 2, 3])).toEqual({ text: '[1, 2, 3]', expandable: true, size: 3 });
    expect(summarize([])).toEqual({ text: '[]', expandable: false, size: 0 });
    expect(summarize({ a: 1 })).toEqual({ text: '{a: 1}', expandable: false, size: 1 });
    expect(summarize({ n: 7, accs: [7, 61.92000000001, 7, 61.92, 7], out: { store: 's4' } }).text).toBe('{n: 7, accs: [7, 61.92, 7, 61.92, …], out: {store: s4}}');
    expect(summarize({ n: 7, accs: [7, 61.92, 7, 61.92, 7], out: { store: 's4' } }).expandable).toBe(true);
    expect(summarize(42).text).toBe('42');
    expect(preview({ a: { b: { c: 1 } } })).toBe('{a: {b: {1}}}');
    expect(entriesOf(['x', 'y'])).toEqual([['0', 'x'], ['1', 'y']]);
    expect(entriesOf(new Map([['k', 1]]))).toEqual([['k', 1]]);
  });
});
