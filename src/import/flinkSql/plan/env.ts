/** What planning one statement needs: the script, the graph, the catalog lookups, warnings. */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Annotation, Prepared } from './prepass.ts';
import type { Graph, Rel } from './model.ts';
import type { Scope } from './expr.ts';

export interface Env {
  sql: string;
  g: Graph;
  prep: Prepared;
  /** A table, view or CTE by name, planned on first use and shared after. */
  relation(name: string, at: Tree): Rel;
  /** CTEs visible here, innermost last. */
  ctes: Map<string, () => Rel>[];
  warn(at: Tree, message: string): void;
  /** Base for the ids of the nodes this statement adds. */
  base: string;
  /** The `-- @weir` annotation of the view being planned: which of the equivalent forms it was. */
  annotation: Annotation | null;
  /** Functions the script creates (upper-cased). */
  functions: ReadonlySet<string>;
  /** SET 'table.exec.state.ttl', for joins without a STATE_TTL hint. */
  globalTtlMs: number | null;
  /** A STATE_TTL hint on the SELECT whose FROM is being planned. */
  stateTtlMs?: number | null;
  /** Planning a branch of UNION ALL itself (not a subquery in it). */
  unionBranch?: boolean;
  /** ORDER BY keys the SELECT list `sel` does not output: it carries them as hidden columns. */
  orderCarry?: { sel: Tree; keys: Tree[] };
}

export const scopeOf = (env: Env, rel: Rel): Scope => ({ cols: rel.cols, sql: env.sql, tryCasts: env.prep.tryCasts, procTime: rel.procTime });

/** A node id under this statement's base: `<base>_<what>`. */
export const nodeId = (env: Env, what: string): string => env.g.id(`${env.base}_${what}`);
