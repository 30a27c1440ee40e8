/**
 * The leaves that differ between two state values, as readable paths ("group.out.revenue"), so a
 * learner sees "revenue: 358.68 → 503.4" instead of two walls of JSON. Pure; depth-limited.
 */
export function diffPaths(before: unknown, after: unknown, max = 6, depth = 4): { path: string; before: unknown; after: unknown }[] {
  const out: { path: string; before: unknown; after: unknown }[] = [];
  const walk = (a: unknown, b: unknown, path: string, d: number): void => {
    if (out.length >= max) return;
    const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
    if (bothObjects && d > 0 && Array.isArray(a) === Array.isArray(b)) {
      const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
      for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k, d - 1);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, before: a, after: b });
  };
  walk(before, after, '', depth);
  return out;
}
