import type { KindSpec } from '../../pipeline/kindSpec.ts';

/**
 * Operator kinds matching what was typed, best first: a title or kind that starts with the text,
 * then one with a word that starts with it, then any that contain it. `title` is the kind's title
 * in the current language; the English title and the kind name always match too.
 */
export function matchKinds(specs: readonly KindSpec[], query: string, title: (s: KindSpec) => string): KindSpec[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...specs];
  const scored: [number, number, KindSpec][] = [];
  specs.forEach((s, i) => {
    const names = [title(s), s.title, s.kind].map((n) => n.toLowerCase());
    const score = names.some((n) => n.startsWith(q)) ? 0 : names.some((n) => n.split(/[\s\-_.·]+/).some((w) => w.startsWith(q))) ? 1 : names.some((n) => n.includes(q)) ? 2 : -1;
    if (score >= 0) scored.push([score, i, s]);
  });
  return scored.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}
