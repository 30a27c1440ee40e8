/**
 * Per-shape plans for row building on the join path. A stream's rows nearly always share one
 * field list, so what depends only on the field names (canonical key order, output column names)
 * is worked out once per list instead of once per row. Plans are derived from the field names
 * alone, so a cached plan gives exactly what working it out again would.
 */

/** How many recent shapes a cache keeps (a join sees two; a changing stream a few more). */
const RECENT_SHAPES = 8;

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** The plans for the most recent field lists, newest first; a miss makes a plan with `make`. */
export class ShapeCache<P> {
  private readonly keys: string[][] = [];
  private readonly plans: P[] = [];

  constructor(private readonly make: (keys: string[]) => P) {}

  get(keys: string[]): P {
    for (let i = 0; i < this.keys.length; i++) if (sameKeys(this.keys[i], keys)) return this.plans[i];
    const plan = this.make(keys);
    this.keys.unshift(keys);
    this.plans.unshift(plan);
    if (this.keys.length > RECENT_SHAPES) {
      this.keys.pop();
      this.plans.pop();
    }
    return plan;
  }
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The key order of `Object.fromEntries(entries sorted by key)`, which is what rowId's sorting
 * replacer serializes: sorted, except that integer-like keys come first in numeric order, as
 * objects order them. Made by building that object, so the engine's own rule decides.
 */
export function canonicalKeyOrder(keys: readonly string[]): string[] {
  return Object.keys(Object.fromEntries([...keys].sort(byCodeUnit).map((k) => [k, 0])));
}

/** rowId's plan for one field list: null when the row's own order is the canonical one. */
export interface RowIdShape {
  /** `__proto__` cannot be copied by assignment: such rows take the general path. */
  general: boolean;
  order: string[] | null;
}

export const rowIdShape = (keys: string[]): RowIdShape => {
  const order = canonicalKeyOrder(keys);
  return { general: keys.includes('__proto__'), order: sameKeys(order, keys) ? null : order };
};

/**
 * `{ ...row }`, built field by field into a fresh object. A spread copy gets a shape of its own,
 * outside the transition tree, so the columns a join adds after it cost a new shape each (about
 * ten times the copy itself). `keys` is `Object.keys(row)`. Rows the loop cannot copy as a spread
 * does (symbol keys, an own `__proto__`, which assignment would turn into the prototype) are
 * spread.
 */
export function copyRow(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (Object.getOwnPropertySymbols(row).length > 0 || keys.includes('__proto__')) return { ...row };
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) out[keys[i]] = row[keys[i]];
  return out;
}
