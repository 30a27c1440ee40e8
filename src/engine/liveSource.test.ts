import { describe, expect, it } from 'vitest';
import { Executor } from './executor.ts';
import { jsonLinesReader, liveLinesReader } from './source.ts';
import { ManualClock } from './time/clock.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import type { Element } from './types.ts';

const line = (customer: string, ts: number) => JSON.stringify({ customer, ts });
const schema = { customer: 'string', ts: 'timestamp' };

/** a (+ b, when given) → union → tumbling 1 s count per customer → log. */
const windowDoc = (sources: string[], idleTimeoutMs?: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'live',
  nodes: [
    ...sources.map((id) => ({ id, kind: 'fileSource', params: { schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } } })),
    ...(sources.length > 1 ? [{ id: 'both', kind: 'union', params: {} }] : []),
    { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] } },
    { id: 'out', kind: 'logSink', params: {} },
  ],
  edges: [
    ...(sources.length > 1
      ? [...sources.map((id) => ({ from: { node: id, port: 'out' }, to: { node: 'both', port: 'in' } })), { from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } }]
      : [{ from: { node: sources[0], port: 'out' }, to: { node: 'per_sec', port: 'in' } }]),
    { from: { node: 'per_sec', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
});

describe('liveLinesReader', () => {
  it('returns nothing without ending until lines arrive, keeps line numbers across chunks, ends on end()', () => {
    const r = liveLinesReader('stdin');
    expect(r.read(10)).toEqual([]);
    expect(r.done()).toBe(false);
    r.push('\uFEFF{"a":1}\n{"a"');
    expect(r.read(10)).toEqual([{ value: { a: 1 }, raw: '{"a":1}', line: 1 }]);
    expect(r.buffered()).toBe(0);
    r.push(':2}\r\n\nnope\n{"a":3}');
    const got = r.read(10);
    expect(got.map((x) => x.line)).toEqual([2, 4]);
    expect(got[0].value).toEqual({ a: 2 });
    expect(got[1].error).toMatch(/not valid JSON/);
    expect(r.done()).toBe(false);
    r.end();
    expect(r.read(10)).toEqual([{ value: { a: 3 }, raw: '{"a":3}', line: 5 }]);
    expect(r.done()).toBe(true);
    expect(() => r.push('x')).toThrow(/after the end/);
  });

  it('refuses to be replayed from another offset', () => {
    const r = liveLinesReader('--input a=-');
    r.push('{"a":1}\n');
    r.read(1);
    expect(() => r.seek(1)).not.toThrow();
    expect(() => r.seek(0)).toThrow(/--input a=- is a live input and cannot be replayed from line 1/);
  });
});

describe('Executor on a live source', () => {
  it('yields when the input has no data yet, fires windows as the watermark advances, and ends like the file run', () => {
    const lines = [line('ann', 100), line('bob', 900), line('ann', 1500), line('ann', 2100), line('bob', 3200)];
    const reader = liveLinesReader('a');
    const out: Element[] = [];
    const clock = new ManualClock(0);
    const ex = new Executor(planOrThrow(windowDoc(['a'])), { readers: { a: reader }, processingTime: 'external', clock, onSinkOutput: (_, els) => out.push(...els) });
    expect(ex.run()).toBe(0);
    expect(ex.isFinished()).toBe(false);
    reader.push(lines.slice(0, 2).join('\n') + '\n');
    ex.run();
    expect(out).toEqual([]);
    reader.push(lines[2] + '\n');
    ex.run();
    // ts 1500 moves the watermark to 1499: the first second [0, 1000) fires before the input ends.
    expect(out.map((e) => e.row)).toEqual([expect.objectContaining({ customer: 'ann', n: 1, window_end: 1000 }), expect.objectContaining({ customer: 'bob', n: 1, window_end: 1000 })]);
    reader.push(lines.slice(3).join('\n'));
    ex.run();
    expect(ex.isFinished()).toBe(false);
    reader.end();
    ex.run();
    expect(ex.isFinished()).toBe(true);
    const fileRun = runPipeline(windowDoc(['a']), { readers: { a: jsonLinesReader(lines) } });
    expect(out).toEqual(fileRun.changelogs.out);
  });

  it('marks a silent live input idle after its idle timeout on the caller clock, so the other input drives the watermark', () => {
    const a = liveLinesReader('a');
    const b = liveLinesReader('b');
    const out: Element[] = [];
    const clock = new ManualClock(0);
    const ex = new Executor(planOrThrow(windowDoc(['a', 'b'], 500)), { readers: { a, b }, processingTime: 'external', clock, onSinkOutput: (_, els) => out.push(...els) });
    a.push(`${line('ann', 100)}\n${line('ann', 1600)}\n`);
    clock.set(100);
    ex.run();
    // b has said nothing, but its idle timeout has not passed: the union's watermark waits for b.
    expect(out).toEqual([]);
    clock.set(300);
    a.push(`${line('ann', 1650)}\n`);
    ex.run();
    expect(out).toEqual([]);
    // At 600 b has been silent for 500 ms and a for only 300: b is idle, a alone moves the watermark.
    clock.set(600);
    ex.run();
    expect(out.map((e) => e.row)).toEqual([expect.objectContaining({ customer: 'ann', n: 1, window_end: 1000 })]);
    b.push(`${line('bob', 1700)}\n`);
    ex.run();
    a.end();
    b.end();
    ex.run();
    expect(ex.isFinished()).toBe(true);
    expect(out.map((e) => [e.row.customer, e.row.n])).toEqual([['ann', 1], ['ann', 2], ['bob', 1]]);
  });
});

describe('Executor with simulated processing time and a source that has no data yet', () => {
  it('returns from run() instead of spinning, and continues when data arrives', () => {
    const reader = liveLinesReader('a');
    const ex = new Executor(planOrThrow(windowDoc(['a'])), { readers: { a: reader } });
    expect(ex.run(1000)).toBe(0);
    reader.push(`${line('ann', 100)}\n`);
    expect(ex.run(1000)).toBeGreaterThan(0);
    expect(ex.isFinished()).toBe(false);
    reader.end();
    ex.run();
    expect(ex.isFinished()).toBe(true);
    expect(ex.changelog('out').map((e) => e.row.n)).toEqual([1]);
  });
});
