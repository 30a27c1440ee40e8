/**
 * `LIKE … ESCAPE` and `SIMILAR TO`, which Weir's expression language does not spell, as the regular
 * expressions they are: Weir's REGEXP(s, '^(?:…)$') matches the whole value, as both predicates do.
 * `%` and `_` match any characters, line breaks included; the escape character makes the next
 * `%`, `_` (or, in SIMILAR TO, any meta character) or itself literal, and before anything else it
 * is an error, as in Flink (Calcite's SqlLikeUtils).
 */

/** Characters a JavaScript regular expression reads specially. */
const JS_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const literal = (ch: string): string => ch.replace(JS_SPECIAL, '\\$&');
/** What SIMILAR TO reads as regular-expression syntax outside […]; anything else is literal. */
const SIMILAR_META = new Set(['|', '*', '+', '?', '{', '}', '(', ')']);

export class PatternError extends Error {}

function escapeOf(escape: string | null): string | null {
  if (escape === null) return null;
  if ([...escape].length !== 1) throw new PatternError(`the ESCAPE character must be one character, not '${escape}'`);
  return escape;
}

/** LIKE's pattern as a whole-value regular expression. */
export function likeRegex(pattern: string, escape: string | null): string {
  const esc = escapeOf(escape);
  const chars = [...pattern];
  let re = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === esc) {
      const next = chars[++i];
      if (next !== '%' && next !== '_' && next !== esc) throw new PatternError(`in the LIKE pattern '${pattern}', the escape character '${esc}' must stand before %, _ or itself`);
      re += literal(next);
    } else if (ch === '%') re += '[\\s\\S]*';
    else if (ch === '_') re += '[\\s\\S]';
    else re += literal(ch);
  }
  return `^(?:${re})$`;
}

/** SIMILAR TO's pattern (SQL's regular expressions: LIKE's wildcards with |, *, +, ?, {m,n}, (…) and […]). */
export function similarRegex(pattern: string, escape: string | null): string {
  const esc = escapeOf(escape);
  const chars = [...pattern];
  let re = '';
  let inClass = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === esc) {
      const next = chars[++i];
      if (next === undefined) throw new PatternError(`the SIMILAR TO pattern '${pattern}' ends with its escape character '${esc}'`);
      re += literal(next);
    } else if (inClass) {
      // Inside […] only `]` and `^`/`-` keep a meaning; a backslash is a literal one.
      if (ch === ']') inClass = false;
      re += ch === '\\' ? '\\\\' : ch;
    } else if (ch === '%') re += '[\\s\\S]*';
    else if (ch === '_') re += '[\\s\\S]';
    else if (ch === '[') {
      inClass = true;
      re += ch;
    } else if (SIMILAR_META.has(ch)) re += ch;
    else re += literal(ch);
  }
  if (inClass) throw new PatternError(`the SIMILAR TO pattern '${pattern}' has a [ without its ]`);
  try {
    new RegExp(re);
  } catch {
    throw new PatternError(`the SIMILAR TO pattern '${pattern}' is not a valid regular expression`);
  }
  return `^(?:${re})$`;
}
