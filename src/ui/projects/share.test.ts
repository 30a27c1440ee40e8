import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare } from './share.ts';
import { STARTER_EXAMPLE } from './starterExample.ts';
import { modelText, userCode, wrapperFor, rowTypeDecl } from '../code/udfWrappers.ts';

describe('share links', () => {
  it('round-trip a document through deflate + base64url', () => {
    const enc = encodeShare(STARTER_EXAMPLE);
    expect(enc).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(decodeShare(enc))).toEqual(STARTER_EXAMPLE);
  });
  it('say a damaged link is damaged', () => expect(() => decodeShare('not-a-link')).toThrow(/damaged/));
});

describe('UDF model text', () => {
  it('wraps code between hidden lines and reads it back', () => {
    const m = modelText('(row) => row.a > 1', rowTypeDecl({ fields: { a: 'integer', 'b c': 'string' }, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null }), wrapperFor('filter', 'code'));
    expect(m.text.split('\n')[0]).toBe('type Row = { a: number; "b c": string };');
    expect(m.headLines).toBe(2);
    expect(userCode(m.text, m)).toBe('(row) => row.a > 1');
    expect(userCode(m.text.slice(1), m)).toBeNull();
  });
});
