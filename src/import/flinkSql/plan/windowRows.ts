/**
 * A window table function read as a table (`SELECT * FROM TABLE(TUMBLE(…))`, or a join of windowed
 * tables that is not a window join): its rows, as Flink's windowing TVFs return them, each input
 * row once per window it falls in, with window_start, window_end and window_time (end − 1 ms)
 * beside its columns. TUMBLE is one map; HOP and CUMULATE are a copy per possible window, each kept
 * where the window holds the row, and a union. A SESSION window depends on rows not yet seen, so
 * it only feeds a window operator.
 */
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';
import type { FromRel } from './select.ts';

const WINDOW_COLS = ['window_start', 'window_end', 'window_time'];

export function windowRows(r: FromRel, env: Env): Rel {
  const tvf = r.tvf!;
  if (tvf.type === 'session' || !r.eventTime) fail(tvf.at, `${tvf.type.toUpperCase()} window table function`, 'a session window depends on rows not yet seen, so it feeds a window operator: GROUP BY window_start, window_end (aggregate)');
  const p = tvf.params as { sizeMs: number; slideMs?: number; stepMs?: number; offsetMs?: number };
  const ts = quoteName(r.eventTime);
  const offset = p.offsetMs ?? 0;
  // The start of the `unit`-aligned bucket holding ts (a large multiple keeps MOD's operand positive);
  // a timestamp minus milliseconds stays a timestamp. Only ever added to or compared, so no parentheses.
  const floor = (unit: number) => `${ts} - MOD(CAST(${ts} AS BIGINT) - ${offset} + ${unit * 1_000_000}, ${unit})`;
  const physical = r.cols.filter((c) => !WINDOW_COLS.includes(c.field));
  const copies: { start: string; end: string; keep: string | null }[] = [];
  if (tvf.type === 'tumble') copies.push({ start: floor(p.sizeMs), end: `${floor(p.sizeMs)} + ${p.sizeMs}`, keep: null });
  else if (tvf.type === 'hop') {
    const slide = p.slideMs!;
    for (let j = 0; j * slide < p.sizeMs; j++) {
      const start = `${floor(slide)} - ${j * slide}`;
      copies.push({ start, end: `${start} + ${p.sizeMs}`, keep: j === 0 ? null : `${start} + ${p.sizeMs} > ${ts}` });
    }
  } else {
    const step = p.stepMs!;
    // Every row is in the whole window; a shorter one holds it only when it ends after it.
    for (let k = 1; k * step <= p.sizeMs; k++) copies.push({ start: floor(p.sizeMs), end: `${floor(p.sizeMs)} + ${k * step}`, keep: k * step === p.sizeMs ? null : `${floor(p.sizeMs)} + ${k * step} > ${ts}` });
  }
  const branches = copies.map((c) => {
    let node = nodeId(env, 'windowed');
    env.g.add({ id: node, kind: 'map', params: { set: [{ name: 'window_start', expr: c.start }, { name: 'window_end', expr: c.end }, { name: 'window_time', expr: `${c.end} - 1` }] }, inputs: [['in', r.node]], at: tvf.at });
    if (c.keep) {
      const kept = nodeId(env, 'in_window');
      env.g.add({ id: kept, kind: 'filter', params: { where: c.keep }, inputs: [['in', node]], at: tvf.at });
      node = kept;
    }
    return node;
  });
  let out = branches[0];
  if (branches.length > 1) {
    out = nodeId(env, 'windows');
    env.g.add({ id: out, kind: 'union', params: {}, inputs: branches.map((b) => ['in', b]), at: tvf.at });
  }
  const quals = r.cols.find((c) => c.field === 'window_start')?.quals ?? [];
  const cols: Col[] = [...physical, ...WINDOW_COLS.map((w) => ({ field: w, name: w, quals, type: 'timestamp' as const }))];
  return { node: out, cols, eventTime: r.eventTime, procTime: r.procTime, updating: r.updating };
}
