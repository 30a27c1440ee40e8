import { describe, expect, it } from 'vitest';
import { safeJsonParse } from './source.ts';

const withReviver = (text: string) => JSON.parse(text, (k, v) => (k === '__proto__' || k === 'constructor' || k === 'prototype' ? undefined : v));

describe('safeJsonParse', () => {
  it('drops the unsafe keys at any depth, also when spelled with \\u escapes', () => {
    const texts = [
      '{"__proto__": {"polluted": 1}, "a": 1}',
      '{"a": {"constructor": {"prototype": {"x": 1}}}, "b": [{"prototype": 2}]}',
      '{"\\u005f_proto__": {"polluted": 1}, "a": 1}',
      '{"constr\\u0075ctor": 1, "a": 2}',
      '{"x": {"proto\\u0074ype": 3}}',
    ];
    for (const t of texts) {
      const v = safeJsonParse(t) as Record<string, unknown>;
      expect(v).toEqual(withReviver(t));
      expect(JSON.stringify(v)).not.toMatch(/__proto__|constructor|prototype|polluted/);
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses every other text to the same value as the reviver does', () => {
    const texts = ['{"key": 1, "amount": 2.5}', '[1, "a", null, true, {"n": -0}]', '"a \\"quoted\\" \\\\ text"', '{"a\\\\u0041": "\\\\u"}', '-0', '{"nested": {"deep": [[1], {"k": "v"}]}}'];
    for (const t of texts) expect(Object.is(safeJsonParse(t), withReviver(t)) || JSON.stringify(safeJsonParse(t)) === JSON.stringify(withReviver(t))).toBe(true);
    expect(Object.is((safeJsonParse('[-0]') as number[])[0], -0)).toBe(true);
    expect(() => safeJsonParse('{"a": ')).toThrow();
  });
});
