// LIKE … ESCAPE and SIMILAR TO read as whole-value regular expressions.
import { describe, expect, it } from 'vitest';
import { PatternError, likeRegex, similarRegex } from './likePatterns.ts';

const like = (p: string, esc: string | null, s: string) => new RegExp(likeRegex(p, esc)).test(s);
const similar = (p: string, s: string, esc: string | null = null) => new RegExp(similarRegex(p, esc)).test(s);

describe('LIKE with an escape character', () => {
  it('makes % and _ and the escape itself literal, and leaves regex characters literal', () => {
    expect(like('a!_%', '!', 'a_b')).toBe(true);
    expect(like('a!_%', '!', 'axb')).toBe(false);
    expect(like('100!%', '!', '100%')).toBe(true);
    expect(like('100!%', '!', '1000')).toBe(false);
    expect(like('a!!b', '!', 'a!b')).toBe(true);
    expect(like('a.b(c)%', '!', 'a.b(c)\nd')).toBe(true);
    expect(like('a.b', '!', 'axb')).toBe(false);
  });

  it('refuses an escape before another character, and a long escape', () => {
    expect(() => likeRegex('a!b', '!')).toThrow(PatternError);
    expect(() => likeRegex('a', '!!')).toThrow(/one character/);
  });
});

describe('SIMILAR TO', () => {
  it('reads alternatives, groups, classes and repetition, and matches the whole value', () => {
    expect(similar('(paid|shipped)', 'paid')).toBe(true);
    expect(similar('(paid|shipped)', 'unpaid')).toBe(false);
    expect(similar('[a-c]%(s|e)', 'cheese')).toBe(true);
    expect(similar('o[0-9]{2}', 'o123')).toBe(false);
    expect(similar('a_+', 'abc')).toBe(true);
    expect(similar('a.b', 'axb')).toBe(false);
    expect(similar('a.b', 'a.b')).toBe(true);
    expect(similar('a#%', 'a%', '#')).toBe(true);
    expect(similar('a#%', 'ab', '#')).toBe(false);
  });

  it('reports an unclosed class or a broken expression', () => {
    expect(() => similarRegex('[abc', null)).toThrow(/without its \]/);
    expect(() => similarRegex('(ab', null)).toThrow(/not a valid regular expression/);
  });
});
