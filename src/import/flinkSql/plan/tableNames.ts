/**
 * A table or view name as the script writes it (`t`, `` `t` ``, `default_database.t`,
 * `default_catalog.default_database.t`) → the one name it has in the plan. Flink puts an
 * unqualified CREATE into its current catalog and database, default_catalog.default_database
 * unless a USE says otherwise, so a name qualified with those is the same table; any other
 * qualification is kept whole, parts unquoted.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { terminals, unquote } from '../../../export/flinkSql/verify/parseTree.ts';

const DEFAULT_PATH = ['default_catalog', 'default_database'];

export function pathName(path: Tree): string {
  const parts = terminals(path)
    .map((t) => t.text ?? '')
    .filter((text) => text !== '.' && text !== '')
    .map(unquote);
  const prefix = parts.slice(0, -1);
  const isDefault = prefix.length <= 2 && prefix.every((p, i) => p === DEFAULT_PATH[DEFAULT_PATH.length - prefix.length + i]);
  return isDefault ? parts[parts.length - 1] : parts.join('.');
}
