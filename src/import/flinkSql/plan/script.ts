/**
 * A whole script → planned nodes: the catalog (tables, views, functions, settings) in statement
 * order, every INSERT (alone, in EXECUTE STATEMENT SET / BEGIN STATEMENT SET … END, or as CREATE
 * TABLE … AS SELECT) planned into its sink. Sources are planned once, on first use, and shared;
 * so are views. A table that one INSERT writes and a later query reads is read from its writer.
 */
import type { PipelineSettings } from '../../../pipeline/document.ts';
import type { SqlSpan, Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, find, findAll, firstToken, outermost, ruleOf, spanOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { ImportError } from '../errors.ts';
import { applySetting } from './settings.ts';
import type { SettingState } from './settings.ts';
import type { Annotation, Prepared } from './prepass.ts';
import { withBackslashes } from './prepass.ts';
import type { Col, Rel } from './model.ts';
import { fail, Graph, quoteName } from './model.ts';
import type { Env } from './env.ts';
import type { TableDef } from './ddl.ts';
import { mergeLike, readTable, sinkKind, sourceRel } from './ddl.ts';
import { finish, keepPending, planQuery } from './select.ts';
import type { FromRel } from './select.ts';
import { annotatedNode, isVersionsHelper } from './annotated.ts';
import { planValues } from './values.ts';
import { pathName } from './tableNames.ts';
import { catalogStatement } from './alterTable.ts';

export interface PlanWarning {
  line: number;
  column: number;
  message: string;
}

export interface ScriptPlan {
  graph: Graph;
  errors: ImportError[];
  warnings: PlanWarning[];
  settings: PipelineSettings;
  name: string | null;
  /** Tables and views with their columns, for completion. */
  catalog: { name: string; kind: 'table' | 'view'; columns: { name: string; type: string | null }[] }[];
}

interface SinkUse {
  def: TableDef;
  inputs: string[];
  at: SqlSpan;
}

export function planScript(prep: Prepared, root: Tree): ScriptPlan {
  const sql = prep.text;
  const g = new Graph();
  const errors: ImportError[] = [];
  const warnings: PlanWarning[] = [];
  const header = prep.annotations.get(0) ?? null;
  const settings: PipelineSettings = { checkpoint: { intervalMs: null }, ...((header?.settings as PipelineSettings | undefined) ?? {}) };
  const st: SettingState = { annotated: header !== null, globalTtlMs: null, warn: (at, message) => warnings.push({ line: at.line, column: at.column, message }) };
  const tables = new Map<string, TableDef>();
  /** The `-- @weir` annotation of each table's and view's statement, when Weir's export wrote the script. */
  const annotations = new Map<string, Annotation>();
  const annotationOf = (s: Tree): Annotation | null => prep.annotations.get(firstToken(s)?.line ?? -1) ?? null;
  const views = new Map<string, { q: Tree; rel: Rel | null; planning: boolean }>();
  const sources = new Map<string, Rel>();
  const written = new Map<string, Rel>();
  const sinks = new Map<string, SinkUse>();
  const functions = new Set<string>();
  /** The tables and views the statement being planned has named, and those each view named when it was planned. */
  const named = new Set<string>();
  const viewReads = new Map<string, Set<string>>();
  /** Named by a statement that failed to plan: not "unused", so no warning says they are. */
  const readByFailed = new Set<string>();
  const warn = (at: Tree, message: string) => {
    const t = firstToken(at);
    warnings.push({ line: t?.line ?? 1, column: (t?.column ?? 0) + 1, message });
  };
  const statements = outermost(root, 'sqlStatement');
  // Every table and view name is its node's id; nothing else may take one.
  for (const s of statements) {
    const p = find(s, 'tablePathCreate') ?? find(s, 'viewPathCreate');
    if (p) g.reserved.add(pathName(p));
  }

  const env = (base: string): Env => {
    const e: Env = { sql, g, prep, ctes: [], warn, base, relation: (name, at) => relation(name, at, e), annotation: annotations.get(base) ?? null, functions, globalTtlMs: st.globalTtlMs };
    return e;
  };
  function relation(name: string, at: Tree, e?: Env): Rel {
    named.add(name);
    for (const scope of [...(e?.ctes ?? [])].reverse()) {
      const c = scope.get(name);
      if (c) return c();
    }
    const w = written.get(name);
    if (w) return w;
    const v = views.get(name);
    if (v) {
      if (v.planning) fail(at, `view ${name}`, 'refers to itself');
      if (!v.rel) {
        v.planning = true;
        const outer = new Set(named);
        named.clear();
        const before = new Set(g.nodes.map((n) => n.id));
        const e = env(name);
        let r: Rel;
        try {
          r = annotatedNode(v.q, e) ?? keepPending(planQuery(v.q, e), e, v.q);
        } finally {
          viewReads.set(name, new Set(named));
          for (const n of outer) named.add(n);
        }
        v.planning = false;
        if (st.annotated && !e.annotation && isVersionsHelper(g, r.node, before, name)) {
          // The export's versioned view for a temporal join: Weir's temporal join keeps the versions itself.
          const input = g.get(r.node)!.inputs[0][1];
          g.nodes.splice(g.nodes.indexOf(g.get(r.node)!), 1);
          v.rel = { ...r, node: input, updating: true };
        } else if (!before.has(r.node) && !(r as FromRel).tvf && ![...sources.values()].some((x) => x.node === r.node)) {
          // The view's last node carries the view's name (not a table's source that the view only passes through).
          g.rename(r.node, name);
          v.rel = { ...r, node: name };
        } else v.rel = r;
      }
      return { ...v.rel, cols: v.rel.cols.map((c) => ({ ...c, quals: [name] })) };
    }
    const t = tables.get(name);
    if (t) {
      let s = sources.get(name);
      if (!s) {
        if (t.asQuery) fail(at, name, 'is written by CREATE TABLE … AS SELECT below this point');
        s = sourceRel(sql, g, t, warn, annotations.get(name) ?? null);
        sources.set(name, s);
      }
      return s;
    }
    fail(at, name, `is not a table or view defined above (known: ${[...tables.keys(), ...views.keys()].join(', ') || 'none'})`);
  }

  const insert = (target: string, q: Tree, columns: string[] | null, at: Tree) => {
    named.add(target);
    const def = tables.get(target) ?? fail(at, 'INSERT INTO', `\`${target}\` is not a table created above`);
    const e = env(target);
    const targetCols = def.columns.filter((c) => !c.computed && !c.proctime).map((c) => c.name);
    const rel = ruleOf(q) === 'valuesDefinition' ? planValues(q, e, null, columns ?? targetCols) : finish(planQuery(q, e), e, q);
    const names = columns ?? targetCols;
    if (columns && columns.some((c) => !targetCols.includes(c))) fail(at, 'INSERT INTO', `\`${target}\` has the columns ${targetCols.join(', ')}`);
    // A column list that leaves columns out fills them with NULL, as Flink does.
    if (rel.cols.length !== names.length) fail(q, 'INSERT INTO', `the query gives ${rel.cols.length} columns (${rel.cols.map((c) => c.name).join(', ')}) for the ${names.length} of \`${target}\` (${names.join(', ')})`);
    let out = rel;
    const last = g.get(rel.node);
    const order0 = columns ? targetCols.map((n) => columns.indexOf(n)) : names.map((_, i) => i);
    if (last?.kind === 'project' && last.id.startsWith(`${target}_`) && !g.nodes.some((n) => n.inputs.some(([, i]) => i === last.id))) {
      // The query's own SELECT list takes the table's column names.
      const fields = last.params.fields as { name: string; expr: string }[];
      last.params = { fields: order0.map((j, i) => ({ name: targetCols[i], expr: j < 0 ? 'NULL' : fields[j].expr })) };
      const time = rel.eventTime ? targetCols[order0.findIndex((j) => j >= 0 && fields[j].name === rel.eventTime)] ?? null : null;
      out = { ...rel, cols: targetCols.map((n): Col => ({ field: n, name: n, quals: [target], type: null })), eventTime: time };
    } else if (rel.cols.some((c, i) => c.field !== names[i]) || columns) {
      const order = columns ? targetCols.map((n) => columns.indexOf(n)) : names.map((_, i) => i);
      const fields = order.map((j, i) => ({ name: targetCols[i], expr: j < 0 ? 'NULL' : quoteName(rel.cols[j].field) }));
      const id = g.id(`${target}_columns`);
      g.add({ id, kind: 'project', params: { fields }, inputs: [['in', rel.node]], at: q });
      const time = fields.find((f) => rel.eventTime && f.expr === quoteName(rel.eventTime))?.name ?? null;
      out = { node: id, cols: targetCols.map((n): Col => ({ field: n, name: n, quals: [target], type: null })), eventTime: time, procTime: [], updating: rel.updating };
    }
    const use = sinks.get(target) ?? { def, inputs: [], at: spanOf(at) };
    use.inputs.push(out.node);
    sinks.set(target, use);
    written.set(target, { ...out, cols: targetCols.map((n, i) => ({ field: out.cols[i].field, name: n, quals: [target], type: out.cols[i].type })) });
  };

  for (const s of statements) {
    named.clear();
    try {
      const create = find(s, 'simpleCreateTable') ?? find(s, 'createTableAsSelect');
      if (create && ruleOf(s.children![0]) === 'ddlStatement') {
        const read = readTable(sql, create, prep.tableKeys.get(firstToken(s)?.start ?? -1) ?? null, prep.liftedWatermarks);
        const def = read.like ? mergeLike(read, tables.get(pathName(childOf(read.like, 'tablePath')!))) : read;
        if (tables.has(def.name) || views.has(def.name)) fail(create, 'CREATE TABLE', `\`${def.name}\` is defined twice`);
        const ann = annotationOf(s);
        if (ann) annotations.set(def.name, ann);
        if (def.asQuery) {
          // CTAS: the query's columns define the table.
          tables.set(def.name, { ...def, columns: [] });
          const e = env(def.name);
                const rel = finish(planQuery(def.asQuery, e), e, def.asQuery);
          tables.set(def.name, { ...def, columns: rel.cols.map((c) => ({ name: c.name, type: c.type, computed: null, proctime: false, metadata: false, at: create })) });
          const use: SinkUse = { def: tables.get(def.name)!, inputs: [rel.node], at: spanOf(create) };
          sinks.set(def.name, use);
          written.set(def.name, { ...rel, cols: rel.cols.map((c) => ({ ...c, quals: [def.name] })) });
        } else tables.set(def.name, def);
        continue;
      }
      const view = find(s, 'createView');
      if (view && !find(s, 'insertStatement')) {
        const name = pathName(find(view, 'viewPathCreate')!);
        if (tables.has(name) || views.has(name)) fail(view, 'CREATE VIEW', `\`${name}\` is defined twice`);
        const ann = annotationOf(s);
        if (ann) annotations.set(name, ann);
        views.set(name, { q: childOf(view, 'queryStatement') ?? find(view, 'queryStatement')!, rel: null, planning: false });
        // Planned now, as Flink validates a view where it is defined; nodes nobody reads are pruned below.
        try {
          relation(name, view);
        } catch (e) {
          views.delete(name);
          throw e;
        }
        continue;
      }
      const fn = find(s, 'createFunction');
      if (fn) {
        const name = unquote(find(fn, 'functionNameCreate')!.getText());
        functions.add(name.toUpperCase());
        // A call of it becomes a map node with a stub to fill in (udf.ts); Weir's own export annotates its code.
        continue;
      }
      const set = find(s, 'setStatement');
      if (set) {
        const prop = find(set, 'tableProperty');
        if (!prop) continue;
        const key = unquote(childOf(prop, 'tablePropertyKey')!.getText().replace(/^'|'$/g, ''));
        const value = withBackslashes(childOf(prop, 'tablePropertyValue')!.getText().replace(/^'|'$/g, ''));
        const tok = firstToken(set)!;
        applySetting(key, value, { line: tok.line, column: tok.column + 1, endLine: tok.line, endColumn: tok.column + 2 }, settings, st);
        continue;
      }
      const inserts = findAll(s, 'insertSimpleStatement');
      if (inserts.length) {
        for (const ins of inserts) {
          if (find(ins, 'insertPartitionDefinition') || /\bOVERWRITE\b/i.test(ins.getText().slice(0, 20))) fail(ins, 'INSERT OVERWRITE', 'a stream has no partitions to overwrite; write INSERT INTO');
          const target = pathName(childOf(ins, 'tablePath')!);
          const list = childOf(ins, 'columnNameList');
          const cols = list ? findAll(list, 'columnName').map((c) => unquote(c.getText())) : null;
          const q = childOf(ins, 'queryStatement') ?? childOf(ins, 'valuesDefinition') ?? fail(ins, 'INSERT INTO', 'expected a query or VALUES');
          insert(target, q, cols, ins);
        }
        continue;
      }
      const q = ruleOf(s.children![0]) === 'dmlStatement' ? find(s, 'queryStatement') : null;
      if (q) {
        // A bare SELECT, as in the SQL client: its result is a view of its own.
        const id = g.id('result');
        const e = env(id);
            const rel = finish(planQuery(q, e), e, q);
        g.add({ id, kind: 'viewSink', params: {}, inputs: [['in', rel.node]], at: q });
        continue;
      }
      const words = textOf(sql, s).replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').trim().split(/\s+/);
      const head = words.slice(0, 2).join(' ').toUpperCase();
      if (/^(BEGIN|END)\b/.test(head) || find(s, 'emptyStatement')) continue;
      if (/^(USE|SHOW|DESCRIBE|DESC|EXPLAIN|RESET|LOAD|UNLOAD|ADD|REMOVE)\b/.test(head)) {
        warn(s, `${[words[0].toUpperCase(), ...words.slice(1, 2)].join(' ')} has no effect on a pipeline and is skipped`);
        continue;
      }
      if (catalogStatement(s, head, tables, warn)) continue;
      const drop = /^DROP\s+(?:TEMPORARY\s+)?(?:SYSTEM\s+)?(TABLE|VIEW|FUNCTION|CATALOG|DATABASE)\s+(?:IF\s+EXISTS\s+)?([^\s;]+)/i.exec(words.join(' '));
      if (drop) {
        // Scripts drop what they are about to create so that they can run twice; a pipeline starts
        // empty, so there is nothing to drop, but a name this script defined may be defined again.
        const name = unquote(drop[2].split('.').pop()!);
        if (/TABLE/i.test(drop[1])) tables.delete(name);
        if (/VIEW/i.test(drop[1])) views.delete(name);
        warn(s, `DROP ${drop[1].toUpperCase()} ${name} has no effect on a pipeline and is skipped`);
        continue;
      }
      fail(s, head || 'statement', 'is not a statement the planner reads (CREATE TABLE / VIEW / FUNCTION, SET, INSERT INTO, SELECT, statement sets)');
    } catch (e) {
      for (const p of findAll(s, 'tablePath')) named.add(pathName(p));
      for (const n of named) markReadByFailed(n);
      // A construct the planner does not foresee must not end the import: it is one more problem,
      // at its statement, and the other statements are still read.
      if (e instanceof ImportError) errors.push(e);
      else {
        const at = firstToken(s);
        errors.push(new ImportError(at?.line ?? 1, (at?.column ?? 0) + 1, 'statement', `the planner cannot read this statement (${e instanceof Error ? e.message : String(e)}); write it in the forms docs/flink-sql.md lists`));
      }
    }
  }

  function markReadByFailed(name: string): void {
    if (readByFailed.has(name)) return;
    readByFailed.add(name);
    for (const n of viewReads.get(name) ?? []) markReadByFailed(n);
  }

  for (const [name, use] of sinks) {
    const { kind, params } = sinkKind(use.def, annotations.get(name) ?? null);
    let input = use.inputs[0];
    if (use.inputs.length > 1) {
      input = g.id(`${name}_union`);
      g.add({ id: input, kind: 'union', params: {}, inputs: use.inputs.map((i) => ['in', i]), at: use.at });
    }
    g.claim(name);
    g.add({ id: name, kind, params, inputs: [['in', input]], at: use.at });
  }
  // Views and sources that no sink reads have no node.
  for (let pruned = true; pruned; ) {
    pruned = false;
    for (const n of [...g.nodes]) {
      if (/Sink$/.test(n.kind) || g.nodes.some((m) => m.inputs.some(([, i]) => i === n.id))) continue;
      g.nodes.splice(g.nodes.indexOf(n), 1);
      pruned = true;
      if (views.has(n.id) && !readByFailed.has(n.id)) warnings.push({ line: n.span.line, column: n.span.column, message: `view \`${n.id}\` is not read by any INSERT; it has no node` });
    }
  }
  // Flink's mini-batch is a session setting: it holds for every GROUP BY of the job.
  if (st.miniBatch) for (const n of g.nodes) if (n.kind === 'aggregate') n.params.miniBatch = true;
  // Sources first, in the order the script declares them, so that a re-export lists them as it did.
  const order = [...tables.keys()];
  const rank = (n: { id: string; inputs: unknown[] }) => (n.inputs.length === 0 && order.includes(n.id) ? order.indexOf(n.id) : order.length);
  const sortedNodes = g.nodes.map((n, i) => [n, i] as const).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([n]) => n);
  g.nodes.splice(0, g.nodes.length, ...sortedNodes);
  for (const [name, t] of tables) if (!sinks.has(name) && !g.get(name) && !readByFailed.has(name)) warnings.push({ line: firstToken(t.at)?.line ?? 1, column: 1, message: `table \`${name}\` is neither read nor written; it has no node` });
  const catalog: ScriptPlan['catalog'] = [
    ...[...tables.values()].map((t) => ({ name: t.name, kind: 'table' as const, columns: t.columns.map((c) => ({ name: c.name, type: c.type })) })),
    ...[...views.entries()].map(([name, v]) => ({ name, kind: 'view' as const, columns: (v.rel?.cols ?? []).map((c) => ({ name: c.name, type: c.type })) })),
  ];
  return { graph: g, errors, warnings, settings, name: st.name ?? null, catalog };
}

export type { Annotation };
