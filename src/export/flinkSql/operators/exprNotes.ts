/** Where a Weir expression and the same text in Flink SQL can disagree, said once per node. */
import { compileExpr } from '../../../expr/index.ts';
import type { ExprNode, FieldType } from '../../../expr/index.ts';
import { childrenOf, mapChildren } from '../../../expr/ast.ts';
import { printSql } from '../../../expr/sql.ts';
import { typeOfNode } from '../../../expr/typecheck.ts';
import type { Relation } from '../context.ts';

function walk(node: ExprNode, visit: (n: ExprNode) => void): void {
  visit(node);
  for (const c of childrenOf(node)) walk(c, visit);
}

/** Single-quoted SQL strings, which the rewrite below must leave alone. */
const STRINGS = /('(?:[^']|'')*')/;

const isInteger = (n: ExprNode, types: Record<string, FieldType>): boolean => typeOfNode(n, types) === 'integer';

/**
 * Weir's `/` divides exactly; Flink divides two integers as integers. With the input's types known,
 * an integer quotient is written with its dividend cast to DOUBLE, so Flink computes Weir's value;
 * and CAST(a / b AS BIGINT) over integers, which is how the import reads Flink's integer division,
 * is written back as a / b.
 */
function flinkDivisions(node: ExprNode, types: Record<string, FieldType>): ExprNode {
  if (node.kind === 'cast' && node.target === 'BIGINT' && node.operand.kind === 'binary' && node.operand.op === '/' && isInteger(node.operand.left, types) && isInteger(node.operand.right, types)) {
    return { ...node.operand, left: flinkDivisions(node.operand.left, types), right: flinkDivisions(node.operand.right, types) };
  }
  const copy = mapChildren(node, (c) => flinkDivisions(c, types));
  if (node.kind === 'binary' && node.op === '/' && copy.kind === 'binary' && isInteger(node.left, types) && isInteger(node.right, types)) {
    return { ...copy, left: { kind: 'cast', operand: copy.left, target: 'DOUBLE', start: copy.left.start, end: copy.left.end } };
  }
  return copy;
}

/**
 * The expression as Flink SQL. A nested path `a`.`b` reads inside a json value in Weir; json
 * fields are STRING columns in Flink, so the path becomes JSON_VALUE(`a`, '$.b'). With the
 * input's types, integer division is written as Weir computes it (flinkDivisions).
 */
export function flinkExpr(source: string, qualify?: ReadonlyMap<string, string>, types?: Record<string, FieldType>): string {
  const compiled = compileExpr(source);
  return (types ? printSql(flinkDivisions(compiled.ast, types)) : compiled.toSql())
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
