import type { JobPlan } from '../../pipeline/plan.ts';
import type { Element, Row } from '../../core/types.ts';
import { keySelector } from '../../core/keys.ts';
import { compareRows } from '../../engine/operators/changelogTable.ts';
import { sinkPrimaryKey } from '../../engine/operators/sinks.ts';
import { compareBags } from '../oracle/sqlOracle.ts';
import type { PlainRow } from '../oracle/sqlOracle.ts';

const isAdd = (e: Element) => e.kind === '+I' || e.kind === '+U';

/** A view's primary key as its sink applies it (none: a multiset of rows). */
function viewKey(plan: JobPlan, sink: string): string[] | null {
  const n = plan.nodes.find((x) => x.id === sink)!;
  const pk = sinkPrimaryKey(n.kind, n.params as { primaryKey?: string[] }, n.inputs);
  return pk && pk.length ? pk : null;
}

/**
 * Replays a published changelog in commit order. Returns the table it builds and the changes
 * that made no sense (a retraction of a row the table did not hold): every committed change
 * must have been committed exactly once.
 */
export function replayChangelog(log: readonly Element[], pk: string[] | null): { rows: Row[]; orphans: number } {
  let orphans = 0;
  const rows: Row[] = [];
  if (pk) {
    const key = keySelector(pk);
    const table = new Map<unknown, Row>();
    for (const e of log) {
      const k = key(e.row);
      if (isAdd(e)) table.set(k, e.row);
      else if (!table.delete(k)) orphans++;
    }
    rows.push(...table.values());
  } else {
    const copies = new Map<string, { row: Row; n: number }>();
    for (const e of log) {
      const k = JSON.stringify(e.row);
      const c = copies.get(k) ?? { row: e.row, n: 0 };
      if (isAdd(e)) c.n++;
      else if (c.n === 0) orphans++;
      else c.n--;
      copies.set(k, c);
    }
    for (const c of copies.values()) for (let i = 0; i < c.n; i++) rows.push(c.row);
  }
  return { rows: rows.sort((a, b) => compareRows(a, b, pk ?? Object.keys(a))), orphans };
}

/**
 * Equal bags of rows, floats up to a relative 1e-9. A restart changes the order in which two
 * channels' records arrive, so a SUM or AVG adds the same numbers in another order and may
 * differ in its last bits; Flink promises no bit-identical floats across channel interleavings
 * either. Everything else (every row, every count, every string) must match exactly.
 */
const same = (a: readonly Row[], b: readonly Row[]) => {
  if (a.length !== b.length) return false;
  const { missing, extra } = compareBags(a as PlainRow[], b as PlainRow[], FLOAT_TOLERANCE);
  return missing.length === 0 && extra.length === 0;
};
const FLOAT_TOLERANCE = 1e-9;

/** Every view equals the plain run's, and its published changelog replays to it without orphans. */
export function viewProblems(plan: JobPlan, expected: Record<string, Row[]>, views: Record<string, Row[]>, changelogs: Record<string, Element[]>): string[] {
  const out: string[] = [];
  for (const [sink, want] of Object.entries(expected)) {
    const got = views[sink] ?? [];
    if (!same(got, want)) out.push(`view ${sink}: ${got.length} rows, the plain run has ${want.length}${describeDiff(got, want)}`);
    const log = changelogs[sink];
    if (!log) continue;
    const replayed = replayChangelog(log, viewKey(plan, sink));
    if (replayed.orphans) out.push(`changelog ${sink}: ${replayed.orphans} retractions of rows never published`);
    if (!same(replayed.rows, want)) out.push(`changelog ${sink}: replays to ${replayed.rows.length} rows, the plain run's view has ${want.length}`);
  }
  return out;
}

function describeDiff(got: Row[], want: Row[]): string {
  const w = new Set(want.map((r) => JSON.stringify(r)));
  const g = new Set(got.map((r) => JSON.stringify(r)));
  const extra = got.find((r) => !w.has(JSON.stringify(r)));
  const missing = want.find((r) => !g.has(JSON.stringify(r)));
  return `${extra ? `; extra e.g. ${JSON.stringify(extra)}` : ''}${missing ? `; missing e.g. ${JSON.stringify(missing)}` : ''}`;
}
