/**
 * Nodes that hold JavaScript: Flink SQL cannot run it, so each gets a function stub (in the
 * script's "user code to port" section), a warning, and — where a call is meaningful — a view
 * that calls the function, so the rest of the script is complete once the function exists.
 */
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { FieldType } from '../../../core/streamInfo.ts';
import type { BroadcastProcessParams } from '../../../pipeline/kinds/broadcastProcess.ts';
import type { FunctionStub, Relation, ViewDef } from '../context.ts';
import { ident, identList, pascalCase, qualifiedList, sqlType } from '../sqlText.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, view, paramsOf } from './shared.ts';

const JAVA_TYPES: Record<FieldType, string> = {
  string: 'String',
  json: 'String',
  number: 'Double',
  integer: 'Long',
  boolean: 'Boolean',
  timestamp: 'java.time.Instant',
};
const JAVA_RESERVED = new Set(['abstract', 'boolean', 'byte', 'case', 'catch', 'char', 'class', 'default', 'do', 'double', 'else', 'enum', 'final', 'float', 'for', 'if', 'int', 'long', 'new', 'package', 'private', 'public', 'return', 'short', 'static', 'switch', 'this', 'throw', 'try', 'void', 'while']);

const javaParam = (name: string, i: number): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !JAVA_RESERVED.has(name) ? name : `arg${i}`);
const javaParams = (rel: Relation): string => rel.columns.map((c, i) => `${JAVA_TYPES[rel.types[c]]} ${javaParam(c, i)}`).join(', ');
const rowType = (rel: Relation, columns: readonly string[]): string => `ROW<${columns.map((c) => `${ident(c)} ${sqlType(rel.types[c])}`).join(', ')}>`;

function addStub(a: OperatorArgs, base: FunctionStub['base'], nameBase: string, classBase: string, explain: string[], code: string): string {
  const name = a.cx.fresh(nameBase);
  const className = `com.example.${pascalCase(classBase)}`;
  a.cx.functions.push({ nodeId: a.node.id, name, className, base, explain, code });
  return name;
}

function warnPort(a: OperatorArgs, what: string, fn: string): void {
  a.cx.warn(a.node.id, `${what} cannot run in Flink SQL: implement the function \`${fn}\` (class ${a.cx.functions.find((f) => f.name === fn)?.className}) from the "user code to port" section`);
}

/**
 * `SELECT … FROM in AS i CROSS JOIN LATERAL TABLE(fn(i.cols)) AS t(cols)`. The input's time
 * column, when the output keeps it, is read from the input so it stays a time attribute: in Weir a
 * record keeps its input's event time whatever the code does.
 */
function lateralView(a: OperatorArgs, input: Relation, fn: string, comments: string[]): ViewDef {
  const keep = input.time && a.out.columns.includes(input.time) ? input.time : null;
  const produced = a.out.columns.filter((c) => c !== keep);
  const items = a.out.columns.map((c) => (c === keep ? `i.${ident(c)}` : `t.${ident(c)}`));
  const sql = `SELECT ${items.join(', ')}\nFROM ${ident(input.name)} AS i\nCROSS JOIN LATERAL TABLE(${ident(fn)}(${qualifiedList('i', input.columns)})) AS t(${identList(produced)})`;
  return view(a.node.id, comments, sql);
}

function tableFunction(a: OperatorArgs, input: Relation, what: string, explain: string): string {
  const keep = input.time && a.out.columns.includes(input.time) ? input.time : null;
  const produced = a.out.columns.filter((c) => c !== keep);
  return addStub(
    a,
    'TableFunction',
    `${a.node.id}_fn`,
    `${a.node.id}_function`,
    [
      `${what} → TableFunction. ${explain}`,
      `@FunctionHint(output = @DataTypeHint("${rowType(a.out, produced)}"))`,
      `public void eval(${javaParams(input)}) { … collect(Row.of(…)); }`,
      ...(keep ? [`(the event-time column \`${keep}\` is kept from the input row, as in Weir)`] : []),
    ],
    String(a.node.params.code ?? ''),
  );
}

export const codeFilter: OperatorExport = (a) => {
  const input = needInput(a);
  if (!input) return null;
  const fn = addStub(
    a,
    'ScalarFunction',
    `${a.node.id}_fn`,
    `${a.node.id}_predicate`,
    [`filter ${describe(a.node)} → ScalarFunction returning what the predicate returns (NULL or FALSE drops the row):`, `public Boolean eval(${javaParams(input)})`],
    String(a.node.params.code ?? ''),
  );
  warnPort(a, 'the filter code', fn);
  const sql = `SELECT ${identList(a.out.columns)}\nFROM ${ident(input.name)}\nWHERE ${ident(fn)}(${identList(input.columns)})`;
  return [view(a.node.id, [`filter ${describe(a.node)}: calls \`${fn}\`, ported from the pipeline's code`], sql)];
};

export const codeMap: OperatorExport = (a) => {
  const input = needInput(a);
  if (!input) return null;
  const fn = tableFunction(a, input, `map ${describe(a.node)}`, 'Collect exactly one row: the object the code returns (collect nothing where Weir dead-letters the record).');
  warnPort(a, 'the map code', fn);
  return [lateralView(a, input, fn, [`map ${describe(a.node)}: calls \`${fn}\`, ported from the pipeline's code`])];
};

export const flatMapExport: OperatorExport = (a) => {
  const input = needInput(a);
  if (!input) return null;
  const fn = tableFunction(a, input, `flatMap ${describe(a.node)}`, 'Collect one row per element of the array the code returns.');
  warnPort(a, 'the flatMap code', fn);
  return [lateralView(a, input, fn, [`flatMap ${describe(a.node)}: calls \`${fn}\`, ported from the pipeline's code`])];
};

export const processExport: OperatorExport = (a) => {
  const input = needInput(a);
  if (!input) return null;
  const key = input.uniqueKey ?? a.node.inputs.in?.keyedBy ?? [];
  const explain =
    'Keyed state and timers have no Flink SQL equivalent: port processElement/onTimer to a DataStream KeyedProcessFunction ' +
    `keyed by (${key.join(', ')}) and register its output as a table (or use a Process Table Function on Flink 2.1+). ` +
    'This stateless stub only keeps the script complete; replace the view below.';
  const fn = tableFunction(a, input, `process function ${describe(a.node)}`, explain);
  a.cx.warn(a.node.id, `the keyed process function (state and timers) cannot be expressed in Flink SQL: port it to a DataStream KeyedProcessFunction; the SQL calls a stateless stub \`${fn}\` in its place`);
  return [lateralView(a, input, fn, [`PORT REQUIRED — process function ${describe(a.node)}: a stateless stand-in for keyed state and timers`])];
};

export const broadcastProcessExport: OperatorExport = (a) => {
  const p = paramsOf<BroadcastProcessParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  const rules = a.cx.input(a.node, 'rules');
  const what = p.lookup !== undefined ? `enrichment: add the rule_ columns of the rule whose \`${p.ruleKey}\` equals \`${p.lookup}\`` : 'the code (row, rules, ctx)';
  const explain =
    `Broadcast state has no Flink SQL equivalent. Port ${what} to a DataStream BroadcastProcessFunction fed by ` +
    `the rules stream${rules ? ` \`${rules.name}\`` : ''}, or for lookups use a lookup join against a rules table (FOR SYSTEM_TIME AS OF a PROCTIME() column). ` +
    'This stub sees no rules; it only keeps the script complete.';
  const fn = tableFunction(a, input, `broadcast rules ${describe(a.node)}`, explain);
  a.cx.warn(a.node.id, `broadcast state cannot be expressed in Flink SQL: port it to a DataStream BroadcastProcessFunction; the SQL calls a stub \`${fn}\` that does not see the rules stream`);
  return [lateralView(a, input, fn, [`PORT REQUIRED — broadcast rules ${describe(a.node)}: a stand-in without the rules stream`])];
};

/** An AggregateFunction stub for a udaf call; returns the SQL function name. */
export function udafStub(a: OperatorArgs, call: AggregateCall, input: Relation): string {
  const args = call.field !== undefined ? `${JAVA_TYPES[input.types[call.field]] ?? 'Object'} value` : javaParams(input);
  const fn = addStub(
    a,
    'AggregateFunction',
    `${a.node.id}_${call.as}`,
    `${a.node.id}_${call.as}_aggregate`,
    [
      `aggregate \`${call.as}\` of ${describe(a.node)} → AggregateFunction<OUT, ACC> returning ${sqlType(a.out.types[call.as] ?? 'json')}:`,
      `createAccumulator() ← create(); accumulate(acc, ${args}) ← add; retract(acc, …) ← retract (needed for updating input);`,
      'merge(acc, Iterable<ACC>) ← merge (session windows); getValue(acc) ← get.',
    ],
    call.code ?? '',
  );
  warnPort(a, `the aggregate function "${call.as}"`, fn);
  return fn;
}
