/**
 * JSON_VALUE(v, path [RETURNING type] [{NULL | DEFAULT x} ON EMPTY] [{NULL | DEFAULT y} ON ERROR]),
 * as Calcite defines the two cases: EMPTY when the path finds nothing or JSON null; ERROR when
 * the text is not JSON, the value at the path is an object or array, or it does not convert to
 * the RETURNING type. Weir's JSON_VALUE gives NULL in every one of those cases, so a DEFAULT is
 * written as a CASE that tells them apart with IS JSON and JSON_QUERY.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { find, findAll, textOf } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';
import type { Scope } from './expr.ts';

/** The Weir cast of the STRING JSON_VALUE returns, by RETURNING type ('' when none is needed). */
export const RETURNING: Readonly<Record<string, string>> = {
  STRING: '', VARCHAR: '', CHAR: '', BIGINT: 'BIGINT', INT: 'BIGINT', INTEGER: 'BIGINT', SMALLINT: 'BIGINT', TINYINT: 'BIGINT',
  DOUBLE: 'DOUBLE', FLOAT: 'DOUBLE', REAL: 'DOUBLE', DECIMAL: 'DOUBLE', BOOLEAN: 'BOOLEAN', DATE: 'DATE', TIMESTAMP: 'TIMESTAMP(3)',
};

/** The call rendered, or null when its second argument is a bare path (the plain function). */
export function jsonValueCall(t: Tree, input: Tree, params: Tree, scope: Scope, r: (x: Tree) => string, inputIsJson: boolean): string | null {
  const text = textOf(scope.sql, params);
  const path = /^\s*('(?:[^']|'')*')/.exec(text);
  if (!path) return null;
  let rest = text.slice(path[0].length);
  if (!rest.trim()) return null;
  const site = (what: string) => `JSON_VALUE(… ${what})`;
  let target = '';
  const returning = /^\s*RETURNING\s+([A-Za-z_]+)\s*(?:\(\s*\d+\s*(?:,\s*\d+\s*)?\))?/.exec(rest);
  if (returning) {
    const cast = RETURNING[returning[1].toUpperCase()];
    if (cast === undefined) fail(t, site(`RETURNING ${returning[1]}`), `Weir reads RETURNING ${Object.keys(RETURNING).join(', ')}`);
    target = cast;
    rest = rest.slice(returning[0].length);
  }
  // The DEFAULT values, in the order written.
  const defaults = findAll(find(params, 'jsonValueParams') ?? params, 'valueExpression');
  const behaviour: Record<'EMPTY' | 'ERROR', string> = { EMPTY: 'NULL', ERROR: 'NULL' };
  while (rest.trim()) {
    const word = /^\s*(NULL|ERROR|DEFAULT)\b/i.exec(rest);
    if (!word) fail(t, site(rest.trim()), 'expected RETURNING type, then {NULL | DEFAULT value} ON EMPTY, then {NULL | DEFAULT value} ON ERROR');
    rest = rest.slice(word[0].length);
    let value = 'NULL';
    if (word[1].toUpperCase() === 'DEFAULT') {
      const d = defaults.shift() ?? fail(t, site('DEFAULT'), 'DEFAULT needs a value');
      const written = textOf(scope.sql, d);
      const at = rest.indexOf(written);
      if (at < 0) fail(t, site('DEFAULT'), 'DEFAULT needs a value');
      value = r(d);
      rest = rest.slice(at + written.length);
    }
    const on = /^\s*ON\s+(EMPTY|ERROR)\b/i.exec(rest);
    if (!on) fail(t, site(word[1]), 'expected ON EMPTY or ON ERROR after it');
    rest = rest.slice(on[0].length);
    const which = on[1].toUpperCase() as 'EMPTY' | 'ERROR';
    if (word[1].toUpperCase() === 'ERROR') fail(t, site(`ERROR ON ${which}`), `Flink fails the job there; Weir does not stop a run for one record: write NULL ON ${which} (the default) or DEFAULT value ON ${which}, and filter the NULLs or defaults out`);
    behaviour[which] = value;
  }
  const v = r(input);
  const value = `JSON_VALUE(${v}, ${path[1]})`;
  const cast = target ? `CAST(${value} AS ${target})` : value;
  if (behaviour.EMPTY === 'NULL' && behaviour.ERROR === 'NULL') return cast;
  const errors = [...(inputIsJson ? [] : [`${v} IS NOT JSON`]), `JSON_QUERY(${v}, ${path[1]}) IS NOT NULL`, ...(target ? [`(${value} IS NOT NULL AND ${cast} IS NULL)`] : [])];
  return `CASE WHEN ${v} IS NULL THEN NULL WHEN ${errors.join(' OR ')} THEN ${behaviour.ERROR} WHEN ${value} IS NULL THEN ${behaviour.EMPTY} ELSE ${cast} END`;
}
