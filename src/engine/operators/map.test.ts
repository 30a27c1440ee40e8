import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

const mapOf = (code: string) => new OperatorHarness('map', { code });

describe('map: messages for bad code', () => {
  it('says an array is an array, not "object, not an object"', () => {
    const h = mapOf('(row) => [row]').processElement({ a: 1 });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['map returned an array, not an object (return one record as { field: value, … }; use flatMap for several)']);
  });

  it('says what was thrown when it is not an Error', () => {
    const h = mapOf('(row) => { throw undefined; }').processElement({ a: 1 });
    expect(h.deadLetters[0].reason).toBe('map code threw: undefined (not an Error: throw new Error("…") to give a reason)');
    const n = mapOf('(row) => { throw 42; }').processElement({ a: 1 });
    expect(n.deadLetters[0].reason).toContain('map code threw: 42 (not an Error');
  });

  it('names a record nested too deeply instead of only "Maximum call stack size exceeded"', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    const h = mapOf('(row) => { const walk = (x) => (typeof x === "object" ? 1 + walk(x.d) : 0); return { depth: walk(row) }; }').processElement({ d: deep } as never);
    expect(h.deadLetters[0].reason).toMatch(/^processing failed: the record is nested too deeply, or an expression is too long, to process \(Maximum call stack size exceeded\)/);
  });
});
