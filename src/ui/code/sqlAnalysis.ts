import { importFlinkSql, planFlinkSql } from '../../import/flinkSql/index.ts';
import type { FlinkSqlPlan, SqlProblem } from '../../import/flinkSql/index.ts';

export interface SqlAnalysis {
  /** The text that was checked. */
  text: string;
  problems: SqlProblem[];
  /** Each planned node's span, by node id, for linking the script on screen with the canvas. */
  spans: FlinkSqlPlan['spans'];
  catalog: FlinkSqlPlan['catalog'];
  /** Planning time in milliseconds, shown nowhere but kept for measuring the editor's latency. */
  ms: number;
}

/** Weir's exporter opens its scripts with this annotation; its own reader takes them back whole. */
const WEIR_HEADER = /^-- @weir \{"pipeline"/m;

/** What the SQL tab underlines: the planner's problems, or none for a script Weir wrote that its reader accepts. */
export function analyseSql(sql: string): SqlAnalysis {
  const t0 = performance.now();
  const plan = planFlinkSql(sql);
  let problems = plan.problems;
  if (!plan.doc && WEIR_HEADER.test(sql)) {
    const back = importFlinkSql(sql);
    if (back.ok) problems = [];
  }
  return { text: sql, problems, spans: plan.spans, catalog: plan.catalog, ms: performance.now() - t0 };
}
