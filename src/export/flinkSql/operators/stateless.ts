/** filter, map (expressions), project, keyBy, union and unnest: plain SELECTs. */
import type { FilterParams } from '../../../pipeline/kinds/filter.ts';
import type { MapParams } from '../../../pipeline/kinds/map.ts';
import type { ProjectParams } from '../../../pipeline/kinds/project.ts';
import type { KeyByParams } from '../../../pipeline/kinds/keyBy.ts';
import type { UnnestParams } from '../../../pipeline/kinds/unnest.ts';
import { compileExpr } from '../../../expr/index.ts';
import { ident, identList } from '../sqlText.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, selectAll, selectItem, view, paramsOf } from './shared.ts';
import { codeFilter, codeMap } from './userCode.ts';
import { expressionNotes, flinkExpr } from './exprNotes.ts';
import type { Relation } from '../context.ts';

function noteExpressions(a: OperatorArgs, sources: string[], input: Relation): void {
  for (const note of expressionNotes(sources, input)) a.cx.warn(a.node.id, note);
}

export const filterExport: OperatorExport = (a) => {
  const p = paramsOf<FilterParams>(a.node);
  if (p.code !== undefined) return codeFilter(a);
  const input = needInput(a);
  if (!input) return null;
  const where = flinkExpr(p.where ?? 'TRUE', undefined, input.types);
  noteExpressions(a, [p.where ?? 'TRUE'], input);
  return [view(a.node.id, [`filter ${describe(a.node)}: ${p.where}`], `${selectAll(a.out.columns, input.name)}\nWHERE ${where}`)];
};

export const mapExport: OperatorExport = (a) => {
  const p = paramsOf<MapParams>(a.node);
  if (!p.set) return codeMap(a);
  const input = needInput(a);
  if (!input) return null;
  // Every expression reads the input row, as in Weir; a field set twice takes the last expression.
  const exprs = new Map(p.set.map((s) => [s.name, flinkExpr(s.expr, undefined, input.types)]));
  noteExpressions(a, p.set.map((s) => s.expr), input);
  if (input.time && exprs.has(input.time)) {
    a.cx.warn(a.node.id, `sets the event-time field "${input.time}", so in Flink it is no longer a time attribute and later windows or joins on it fail; set another field instead`);
  }
  const items = a.out.columns.map((c) => selectItem(exprs.get(c) ?? ident(c), c));
  return [view(a.node.id, [`map ${describe(a.node)}: sets ${p.set.map((s) => s.name).join(', ')}`], `SELECT ${items.join(', ')}\nFROM ${ident(input.name)}`)];
};

export const projectExport: OperatorExport = (a) => {
  const p = paramsOf<ProjectParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  const items = p.fields.map((f) => selectItem(flinkExpr(f.expr, undefined, input.types), f.name));
  noteExpressions(a, p.fields.map((f) => f.expr), input);
  return [view(a.node.id, [`project ${describe(a.node)}`], `SELECT ${items.join(', ')}\nFROM ${ident(input.name)}`)];
};

export const keyByExport: OperatorExport = (a) => {
  const p = paramsOf<KeyByParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  return [
    view(
      a.node.id,
      [`key by ${describe(a.node)}: (${p.key.join(', ')}) — a no-op in SQL: Flink partitions each stateful operator by its own keys`],
      selectAll(a.out.columns, input.name),
    ),
  ];
};

export const unionExport: OperatorExport = (a) => {
  const inputs = a.cx.inputs(a.node, 'in');
  if (inputs.some((r) => r === null)) {
    a.cx.warn(a.node.id, 'skipped: one of its inputs is a stream Flink SQL cannot produce (see the warnings upstream)');
    return null;
  }
  // Inputs may list the same fields in another order; each branch selects them in the output's order.
  const branches = inputs.map((r) => `SELECT ${identList(a.out.columns)}\nFROM ${ident(r!.name)}`);
  return [view(a.node.id, [`union ${describe(a.node)} of ${inputs.map((r) => `\`${r!.name}\``).join(', ')}`], branches.join('\nUNION ALL\n'))];
};

/** The input's columns, then the new ones from a lateral UNNEST (LEFT JOIN … ON TRUE when it keeps empty rows). */
export const unnestExport: OperatorExport = (a) => {
  const p = paramsOf<UnnestParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  noteExpressions(a, [p.expr], input);
  const read = compileExpr(p.expr).fields;
  const json = read.filter((f) => input.types[f] === 'json');
  if (json.length) {
    a.cx.warn(a.node.id, `reads ${json.map((f) => `"${f}"`).join(', ')}, which Weir writes as STRING (its json type); declare it as ARRAY<…> or MAP<…> in the CREATE TABLE for Flink to UNNEST it`);
  }
  const join = p.outer ? 'LEFT JOIN' : 'CROSS JOIN';
  const lateral = `${join} UNNEST(${flinkExpr(p.expr)}) AS ${ident('unnested')} (${identList(p.as)})${p.outer ? ' ON TRUE' : ''}`;
  return [view(a.node.id, [`unnest ${describe(a.node)}: one row per element of ${p.expr}`], `${selectAll(a.out.columns, input.name)}\n${lateral}`)];
};
