import { describe, expect, it } from 'vitest';
import { liveLinesReader } from './source.ts';

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

  it('splits lines at a lone CR as a file does, also when a CRLF is cut between two chunks', () => {
    const text = '{"a":1}\r{"a":2}\r\n{"a":3}\r\r{"a":4}\r';
    const whole = (chunks: string[]) => {
      const r = liveLinesReader('stdin');
      for (const c of chunks) r.push(c);
      r.end();
      return r.read(100).map((x) => [x.line, x.raw, x.error ?? null]);
    };
    const expected = [
      [1, '{"a":1}', null],
      [2, '{"a":2}', null],
      [3, '{"a":3}', null],
      [5, '{"a":4}', null],
    ];
    expect(whole([text])).toEqual(expected);
    // Every cut of the text into two chunks, the CRLF's halves apart among them, reads the same lines.
    for (let cut = 0; cut <= text.length; cut++) expect(whole([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(expected);
  });

  it('refuses to be replayed from another offset', () => {
    const r = liveLinesReader('--input a=-');
    r.push('{"a":1}\n');
    r.read(1);
    expect(() => r.seek(1)).not.toThrow();
    expect(() => r.seek(0)).toThrow(/--input a=- is a live input and cannot be replayed from line 1/);
  });
});
