/**
 * Window aggregates. TUMBLE, HOP and CUMULATE become window table functions grouped by
 * window_start, window_end and window_time. SESSION uses the group-window form
 * GROUP BY SESSION(...): dt-sql-parser 4.5 does not accept the SESSION window TVF.
 */
import type { WindowParams } from '../../../pipeline/kinds/window.ts';
import { ident, interval } from '../sqlText.ts';
import type { Relation } from '../context.ts';
import { aggregateCalls } from './aggregate.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, view, paramsOf } from './shared.ts';

const WINDOW_COLS = ['window_start', 'window_end', 'window_time'].map(ident);

/** Window start depends only on the offset modulo the period, so a negative offset becomes its positive twin. */
function offsetArg(offsetMs: number | undefined, period: number): string[] {
  const off = (((offsetMs ?? 0) % period) + period) % period;
  return off ? [interval(off)] : [];
}

/** The window table function call over `input` (tumble, hop or cumulate). */
export function tvf(p: Pick<WindowParams, 'sizeMs' | 'slideMs' | 'stepMs' | 'offsetMs'> & { type: string }, input: Relation, time: string): string {
  const head = `TABLE ${ident(input.name)}, DESCRIPTOR(${ident(time)})`;
  switch (p.type) {
    case 'tumble':
      return `TUMBLE(${[head, interval(p.sizeMs!), ...offsetArg(p.offsetMs, p.sizeMs!)].join(', ')})`;
    case 'hop':
      return `HOP(${[head, interval(p.slideMs!), interval(p.sizeMs!), ...offsetArg(p.offsetMs, p.slideMs!)].join(', ')})`;
    default:
      return `CUMULATE(${[head, interval(p.stepMs!), interval(p.sizeMs!), ...offsetArg(p.offsetMs, p.sizeMs!)].join(', ')})`;
  }
}

function shape(p: WindowParams): string {
  switch (p.type) {
    case 'tumble':
      return `TUMBLE size ${p.sizeMs} ms`;
    case 'hop':
      return `HOP size ${p.sizeMs} ms, slide ${p.slideMs} ms`;
    case 'cumulate':
      return `CUMULATE step ${p.stepMs} ms up to ${p.sizeMs} ms`;
    case 'session':
      return `SESSION gap ${p.gapMs} ms`;
  }
}

function warnings(a: OperatorArgs, p: WindowParams, input: Relation): void {
  if ((p.allowedLatenessMs ?? 0) > 0) {
    a.cx.warn(a.node.id, `allowedLatenessMs ${p.allowedLatenessMs} has no Flink SQL equivalent: Flink drops records that arrive after their window fired`);
  }
  if (a.cx.plan.edges.some((e) => e.from.node === a.node.id && e.from.port === 'late')) {
    a.cx.warn(a.node.id, 'Flink SQL has no side output for late records: what reads the `late` output gets nothing');
  }
  if (input.changelog === 'update') {
    a.cx.warn(a.node.id, 'the input carries updates; Flink accepts window aggregates over a changelog only in recent versions (session group windows never)');
  }
}

export const windowExport: OperatorExport = (a) => {
  const p = paramsOf<WindowParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  if (!input.time) {
    a.cx.warn(a.node.id, 'skipped: the input has no time attribute in SQL (a regular join or aggregate upstream drops it)');
    return null;
  }
  warnings(a, p, input);
  const keys = p.groupBy.map(ident);
  const aggs = aggregateCalls(a, p.aggregates, input);
  const comments = [`window ${describe(a.node)}: ${shape(p)}${p.groupBy.length ? `, per ${p.groupBy.join(', ')}` : ''}`];
  if (p.type === 'session') {
    const args = `${ident(input.time)}, ${interval(p.gapMs!)}`;
    const items = [
      ...keys,
      `SESSION_START(${args}) AS ${WINDOW_COLS[0]}`,
      `SESSION_END(${args}) AS ${WINDOW_COLS[1]}`,
      `SESSION_ROWTIME(${args}) AS ${WINDOW_COLS[2]}`,
      ...aggs,
    ];
    comments.push('group-window form: the SESSION window TVF is not accepted by the validator (dt-sql-parser) yet');
    return [view(a.node.id, comments, `SELECT ${items.join(', ')}\nFROM ${ident(input.name)}\nGROUP BY ${[...keys, `SESSION(${args})`].join(', ')}`)];
  }
  const items = [...keys, ...WINDOW_COLS, ...aggs];
  const sql = `SELECT ${items.join(', ')}\nFROM TABLE(\n  ${tvf(p, input, input.time)}\n)\nGROUP BY ${[...keys, ...WINDOW_COLS].join(', ')}`;
  return [view(a.node.id, comments, sql)];
};

