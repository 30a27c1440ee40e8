import { describe, expect, it } from 'vitest';
import { decodeFromJson, encodeForJson } from './savepointCodec.ts';

const roundTrip = (v: unknown) => decodeFromJson(JSON.parse(JSON.stringify(encodeForJson(v))));

describe('savepoint value encoding', () => {
  it('keeps everything structuredClone keeps, nested in any combination', () => {
    const sparse: unknown[] = [1];
    sparse[3] = 4;
    const value = {
      numbers: [NaN, Infinity, -Infinity, -0, 0, 1.5, Number.MAX_SAFE_INTEGER],
      undef: [undefined, { a: undefined }],
      sparse,
      max: new Map<unknown, unknown>([
        ['k', 3],
        [1, new Set(['a', NaN])],
        [true, new Map([[-0, [undefined]]])],
        [null, { deep: new Date(5) }],
      ]),
      seen: new Set([1, 'x', null]),
      date: new Date(1_700_000_000_123),
      badDate: new Date(NaN),
      typed: [new Uint8Array([1, 255]), new Float64Array([NaN, -0, Infinity]), new Int32Array([-7]), new BigInt64Array([-3n])],
      buffer: new Uint16Array([1, 2]).buffer,
      big: 12345678901234567890n,
      re: /a+b/gi,
      tagLookalike: { $w: 'Map', v: [] },
      nested: [[new Map([['a', new Set([new Map()])]])]],
      empty: { map: new Map(), set: new Set(), arr: [] },
    };
    expect(roundTrip(value)).toEqual(structuredClone(value));
    const back = roundTrip(value) as typeof value;
    expect(Object.is((back.numbers as number[])[3], -0)).toBe(true);
    expect(back.max).toBeInstanceOf(Map);
    expect(back.typed[1]).toBeInstanceOf(Float64Array);
    expect(Object.is(back.typed[1][1], -0)).toBe(true);
    expect(3 in back.sparse && !(1 in back.sparse)).toBe(true);
    expect(back.tagLookalike).toEqual({ $w: 'Map', v: [] });
    expect(Object.keys(back.undef[1] as object)).toEqual(['a']);
  });

  it('stores plain JSON values as plain JSON', () => {
    const plain = { a: [1, 'two', null, true, { b: 2.5 }] };
    expect(encodeForJson(plain)).toEqual(plain);
  });

  it('names the path of values it cannot store and of corrupted tags', () => {
    expect(() => encodeForJson({ state: [{ value: { f: () => 1 } }] })).toThrow(/state\[0\]\.value\.f is a function.*structured-cloneable/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { again: cyclic };
    expect(() => encodeForJson({ x: cyclic })).toThrow(/x\.self\.again refers back to itself/);
    expect(() => decodeFromJson({ a: [{ $w: 'Weird' }] })).toThrow(/corrupted \(a\[0\]: unknown value tag "Weird"\).*export the savepoint again/);
    expect(() => decodeFromJson({ n: { $w: 'num', v: 'lots' } })).toThrow(/n: unknown number "lots"/);
  });
});
