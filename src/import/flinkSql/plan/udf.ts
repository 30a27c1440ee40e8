/**
 * A call of a function the script creates (`CREATE FUNCTION f AS 'com.example.F'`): Weir cannot
 * load a Java class, so the call becomes a map node whose code holds a stub of `f` for the user
 * to fill in. Until then validation reports the node (code `unwritten-function`), so the
 * pipeline does not run, and the stub would fail every record.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, kids } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { callArgs, callName, columnRef, resolveColumn } from './expr.ts';
import { unwrittenStub } from '../../../pipeline/kinds/map.ts';

interface Item {
  name: string;
  expr: Tree | null;
  col: Col | null;
  at: Tree;
}

/** The created function a SELECT item calls, as the whole item; null for anything else. */
function createdCall(t: Tree, env: Env): string | null {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol && altOf(x) !== 'FunctionCall') x = kids(x)[0];
  const name = callName(x);
  return name && env.functions.has(name) ? name : null;
}

/** A stub map for the items that call created functions; the items then read its columns. */
export function udfStubs(rel: Rel, items: Item[], env: Env): { rel: Rel; items: Item[] } {
  const calls = items.filter((it) => it.expr && createdCall(it.expr, env));
  if (!calls.length) return { rel, items };
  const scope = scopeOf(env, rel);
  const stubs = new Map<string, number>();
  const sets: string[] = [];
  for (const it of calls) {
    const fn = createdCall(it.expr!, env)!;
    let x = it.expr!;
    while (kids(x).length === 1 && !kids(x)[0].symbol && altOf(x) !== 'FunctionCall') x = kids(x)[0];
    const args = callArgs(x).args.map((a) => {
      const ref = columnRef(a);
      if (ref) return `row[${JSON.stringify(resolveColumn(scope, ref.qual, ref.name, a).field)}]`;
      const text = a.getText();
      if (/^-?\d+(\.\d+)?$/.test(text)) return text;
      if (/^'([^']|'')*'$/.test(text)) return JSON.stringify(text.slice(1, -1).replace(/''/g, "'"));
      fail(a, `${fn}(…)`, 'a created function takes columns and literals here; compute other arguments in a subquery first');
    });
    stubs.set(fn, Math.max(stubs.get(fn) ?? 0, args.length));
    sets.push(`    ${JSON.stringify(it.name)}: ${fn.toLowerCase()}(${args.join(', ')}),`);
  }
  const defs = [...stubs].map(([fn, n]) => {
    const params = Array.from({ length: n }, (_, i) => `arg${i + 1}`).join(', ');
    return `  // ${fn}: created by CREATE FUNCTION as a Java/Scala class, which Weir cannot load. Write it here.\n  const ${fn.toLowerCase()} = (${params}) => {\n    ${unwrittenStub(fn)}\n  };`;
  });
  const code = `(row) => {\n${defs.join('\n')}\n  return {\n    ...row,\n${sets.join('\n')}\n  };\n}`;
  const id = nodeId(env, 'udf');
  env.g.add({ id, kind: 'map', params: { code }, inputs: [['in', rel.node]], at: calls[0].at });
  const added: Col[] = calls.map((it) => ({ field: it.name, name: it.name, quals: [], type: null }));
  const out: Rel = { ...rel, node: id, cols: [...rel.cols.filter((c) => !added.some((a) => a.field === c.field)), ...added] };
  return { rel: out, items: items.map((it) => (calls.includes(it) ? { ...it, expr: null, col: added[calls.indexOf(it)] } : it)) };
}
