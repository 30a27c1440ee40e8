/**
 * datagen fills every column with random values of its type. A filter or join downstream that
 * compares a column to a literal (`status = 'PAID'`, `amount > 100`) then keeps almost nothing,
 * which looks like a broken job. Find those comparisons and say what to change in the template.
 */
import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import type { ExprNode } from '../../expr/ast.ts';
import { childrenOf } from '../../expr/ast.ts';
import { parseExpr } from '../../expr/parser.ts';
import type { FieldType } from '../../core/streamInfo.ts';

/** Params that hold a condition over the rows that reach a node. */
const CONDITION_PARAMS = ['where', 'nonEquiCondition', 'having'];

export interface LiteralComparison {
  /** The node whose condition compares. */
  nodeId: string;
  column: string;
  /** The comparison as written, e.g. `status = 'PAID'`. */
  text: string;
  literals: (string | number | boolean)[];
}

const isLiteral = (n: ExprNode): n is Extract<ExprNode, { kind: 'number' | 'string' | 'boolean' }> => n.kind === 'number' || n.kind === 'string' || n.kind === 'boolean';

/** `column op literal` (either way round), BETWEEN, IN and LIKE with literals, anywhere in a condition. */
function comparisons(source: string, columns: ReadonlySet<string>): Omit<LiteralComparison, 'nodeId'>[] {
  let root: ExprNode;
  try {
    root = parseExpr(source);
  } catch {
    return [];
  }
  const out: Omit<LiteralComparison, 'nodeId'>[] = [];
  const column = (n: ExprNode): string | null => (n.kind === 'field' && columns.has(n.path[0]) ? n.path[0] : n.kind === 'cast' ? column(n.operand) : null);
  const found = (n: ExprNode, c: string | null, lits: ExprNode[]) => {
    if (c && lits.length && lits.every(isLiteral)) out.push({ column: c, text: source.slice(n.start, n.end), literals: lits.map((l) => (l as { value: string | number | boolean }).value) });
  };
  const visit = (n: ExprNode): void => {
    if (n.kind === 'binary' && ['=', '<>', '<', '<=', '>', '>='].includes(n.op)) {
      found(n, column(n.left), [n.right]);
      found(n, column(n.right), [n.left]);
    } else if (n.kind === 'between') found(n, column(n.operand), [n.low, n.high]);
    else if (n.kind === 'in') found(n, column(n.operand), n.list);
    else if (n.kind === 'like') found(n, column(n.operand), [n.pattern]);
    childrenOf(n).forEach(visit);
  };
  visit(root);
  return out;
}

/** Every literal comparison on one of the source's columns, in the nodes its rows reach. */
export function literalComparisons(source: PlanNode, plan: JobPlan, columns: readonly string[]): LiteralComparison[] {
  const names = new Set(columns);
  const reached = new Set<string>();
  const next = [source.id];
  while (next.length) {
    const id = next.pop()!;
    for (const e of plan.edges) if (e.from.node === id && !reached.has(e.to.node)) reached.add(e.to.node) && next.push(e.to.node);
  }
  const out: LiteralComparison[] = [];
  for (const n of plan.nodes) {
    if (!reached.has(n.id)) continue;
    for (const p of CONDITION_PARAMS) {
      const cond = n.params[p];
      if (typeof cond === 'string') out.push(...comparisons(cond, names).map((c) => ({ nodeId: n.id, ...c })));
    }
  }
  return out;
}

const NUMERIC: readonly FieldType[] = ['number', 'integer'];

/** What to write in the datagen template so that the comparison can hold, per column type. */
function remedy(c: LiteralComparison, type: FieldType | undefined): string {
  const f = `fields.${c.column}`;
  if (type && NUMERIC.includes(type)) {
    const nums = c.literals.filter((x): x is number => typeof x === 'number');
    const around = nums.length ? ` (values around ${nums.join(', ')})` : '';
    return `bound it with '${f}.min' = '<your-min>', '${f}.max' = '<your-max>'${around}, or count through it with '${f}.kind' = 'sequence', '${f}.start' = '<your-start>', '${f}.end' = '<your-end>'`;
  }
  if (type === 'boolean') return `a random BOOLEAN is true about half the time; no option fixes it, so use kafka or filesystem for real records`;
  return `a random ${type === 'timestamp' ? 'TIMESTAMP' : 'STRING'} never equals a given value ('${f}.kind' = 'sequence' makes '${f}.start'…'${f}.end' numbers as text, '${f}.length' only sets the length); use kafka or filesystem with real records`;
}

/** One sentence per comparison, for the table's comments and the export's warnings. */
export function datagenWarnings(comparisons: LiteralComparison[], types: Record<string, FieldType>): string[] {
  return comparisons.map(
    (c) => `datagen's random \`${c.column}\` will likely match nothing in \`${c.nodeId}\`'s \`${c.text}\`: ${remedy(c, types[c.column])}`,
  );
}
