/**
 * A time attribute computed from other columns, as Flink users declare it:
 * `ts AS TO_TIMESTAMP(ts_text)`, `TO_TIMESTAMP(s, 'fmt')`, `CAST(s AS TIMESTAMP(3))`,
 * `TO_TIMESTAMP_LTZ(epoch_s, 0)`, … with `WATERMARK FOR ts AS ts - INTERVAL …`. The source
 * computes it per record (eventTime.expr) before it reads the record's time, as Flink's source
 * evaluates computed columns before the watermark. Zone-less text is UTC, the session's zone.
 */
import type { TableColumn } from './ddl.ts';
import type { Col } from './model.ts';
import { fail } from './model.ts';
import { render } from './expr.ts';
import { exprType } from './exprForms.ts';
import { textOf } from '../../../export/flinkSql/verify/parseTree.ts';

/** The Weir expression the source computes the time attribute with. */
export function timeExpression(sql: string, c: TableColumn, physical: Col[]): string {
  const text = render(c.computed!, { cols: physical, sql });
  const type = exprType(text, physical);
  // TO_TIMESTAMP_LTZ(epoch, 0 | 3) is the epoch in milliseconds: Weir's timestamps are that number.
  const epoch = /^TO_TIMESTAMP_LTZ\s*\(/i.test(textOf(sql, c.computed!).trim()) && (type === 'integer' || type === 'number');
  if (type !== 'timestamp' && !epoch) {
    fail(c.at, 'WATERMARK', `the time attribute \`${c.name}\` is computed as ${textOf(sql, c.computed!)}, which is ${type ? `a ${type}` : 'not a timestamp'}; compute a TIMESTAMP(3): ${c.name} AS TO_TIMESTAMP(<text column>[, '<format>']), CAST(<text column> AS TIMESTAMP(3)) or TO_TIMESTAMP_LTZ(<epoch column>, 3 | 0)`);
  }
  return text;
}
