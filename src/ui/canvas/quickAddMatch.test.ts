import { describe, expect, it } from 'vitest';
import { kindSpecs } from '../../pipeline/kinds/index.ts';
import { matchKinds } from './quickAddMatch.ts';

describe('matchKinds', () => {
  const en = (s: { title: string }) => s.title;
  it('puts a kind whose title or name starts with the text first', () => {
    expect(matchKinds(kindSpecs, 'filt', en)[0].kind).toBe('filter');
    expect(matchKinds(kindSpecs, 'window', en)[0].kind).toMatch(/^window/);
  });
  it('matches the translated title and the kind name, and gives nothing for nonsense', () => {
    const zh = (s: { kind: string; title: string }) => (s.kind === 'filter' ? '過濾' : s.title);
    expect(matchKinds(kindSpecs, '過濾', zh).map((s) => s.kind)).toEqual(['filter']);
    expect(matchKinds(kindSpecs, 'logSink', en)[0].kind).toBe('logSink');
    expect(matchKinds(kindSpecs, 'zzzz', en)).toEqual([]);
  });
});
