/**
 * Catalog statements in a script. A pipeline has one catalog and one database, so CREATE/ALTER
 * CATALOG and DATABASE change nothing it runs and are skipped with a warning. ALTER TABLE t SET
 * (options) and ALTER TABLE t RENAME TO u change the table for the statements after them, as in
 * Flink's SQL client; other table changes belong in the CREATE TABLE.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, find, findAll, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';
import type { TableDef } from './ddl.ts';
import { readOptions } from './ddl.ts';
import { pathName } from './tableNames.ts';

/** Handles a catalog statement; false when `s` is none. */
export function catalogStatement(s: Tree, head: string, tables: Map<string, TableDef>, warn: (at: Tree, message: string) => void): boolean {
  if (find(s, 'createCatalog') || find(s, 'createDatabase') || /^ALTER (CATALOG|DATABASE)\b/.test(head)) {
    warn(s, `${head} has no effect on a pipeline (one catalog, one database) and is skipped; names qualified with a catalog or database still resolve`);
    return true;
  }
  const alter = find(s, 'alterTable');
  if (!alter) return false;
  const path = childOf(alter, 'tablePath');
  const name = path ? pathName(path) : '';
  const def = tables.get(name) ?? fail(alter, `ALTER TABLE ${name}`, `no table \`${name}\` is created before it; ALTER TABLE changes a table this script creates`);
  const set = childOf(alter, 'setKeyValueDefinition');
  const rename = childOf(alter, 'renameDefinition');
  if (set) {
    tables.set(name, { ...def, options: { ...def.options, ...readOptions(set) } });
    return true;
  }
  if (rename) {
    const to = unquote(findAll(rename, 'identifier').at(-1)!.getText());
    if (tables.has(to)) fail(rename, `ALTER TABLE ${name} RENAME TO ${to}`, `a table \`${to}\` exists already; drop it first or choose another name`);
    tables.delete(name);
    tables.set(to, { ...def, name: to });
    return true;
  }
  fail(alter, `ALTER TABLE ${name}`, 'Weir reads ALTER TABLE … SET (options) and RENAME TO; write other changes into the CREATE TABLE');
}
