/** Where a Weir expression and the same text in Flink SQL can disagree, said once per node. */
import { compileExpr } from '../../../expr/index.ts';
import type { ExprNode } from '../../../expr/index.ts';
import { childrenOf } from '../../../expr/ast.ts';
import { typeOfNode } from '../../../expr/typecheck.ts';
import type { Relation } from '../context.ts';

function walk(node: ExprNode, visit: (n: ExprNode) => void): void {
  visit(node);
  for (const c of childrenOf(node)) walk(c, visit);
}

/** Single-quoted SQL strings, which the rewrite below must leave alone. */
const STRINGS = /('(?:[^']|'')*')/;

/**
 * The expression as Flink SQL. A nested path `a`.`b` reads inside a json value in Weir; json
 * fields are STRING columns in Flink, so the path becomes JSON_VALUE(`a`, '$.b').
 */
export function flinkExpr(source: string, qualify?: ReadonlyMap<string, string>): string {
  return compileExpr(source)
    .toSql()
    .split(STRINGS)
    .map((part, i) =>
      i % 2 ? part : part.replace(/`((?:[^`]|``)+)`((?:\.`(?:[^`]|``)+`)+)/g, (_m, head: string, rest: string) => {
        const path = rest.slice(2, -1).split('`.`').map((p) => p.replace(/``/g, '`').replace(/'/g, "''"));
        return `JSON_VALUE(\`${head}\`, '$.${path.join('.')}')`;
      }),
    )
    // Column references of a join condition name the joined row's columns; the ON clause needs l./r.
    .map((part, i) => (i % 2 || !qualify ? part : part.replace(/`((?:[^`]|``)+)`/g, (m, name: string) => qualify.get(name.replace(/``/g, '`')) ?? m)))
    .join('');
}

export function expressionNotes(sources: readonly string[], input: Relation): string[] {
  const notes = new Set<string>();
  for (const src of sources) {
    walk(compileExpr(src).ast, (n) => {
      if (n.kind === 'binary' && n.op === '/' && typeOfNode(n.left, input.types) === 'integer' && typeOfNode(n.right, input.types) === 'integer') {
        notes.add('integer / integer is integer division in Flink but exact division in Weir: CAST one side AS DOUBLE to keep Weir\'s result');
      }
      if (n.kind === 'call' && (n.name === 'REGEXP' || n.name === 'REGEXP_REPLACE' || n.name === 'REGEXP_EXTRACT')) {
        notes.add(`${n.name} reads its pattern as a JavaScript regular expression in Weir and a Java one in Flink: they agree on classes, groups, quantifiers and anchors; check anything beyond those`);
      }
      if (n.kind === 'field' && n.path.length > 1) {
        notes.add(`\`${n.path.join('.')}\` reads inside a json field (a STRING column in Flink): the SQL uses JSON_VALUE, which returns STRING; CAST it where Weir's value was a number or boolean`);
      }
    });
  }
  return [...notes];
}
