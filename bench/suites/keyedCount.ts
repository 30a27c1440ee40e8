import { Subject } from 'rxjs';
import { groupBy as rxGroupBy, mergeMap, scan } from 'rxjs/operators';
import { D2, MultiSet, groupBy, groupByOperators, output } from '@tanstack/db-ivm';

const { count, sum } = groupByOperators;
import { runInProcess } from '../../src/runtime/runInProcess.ts';
import type { LocalCluster } from '../../src/runtime/localCluster.ts';
import type { SinkOperator } from '../../src/engine/operators/sinks.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, now, pairedRatio, type RunPlan } from '../lib/stats.ts';

export interface Totals {
  cnt: number;
  total: number;
}

/**
 * Weir: the whole pipeline in process (one subtask per node, as a plain run); returns events/s and
 * the view size. `chain: false` keeps the view apart from the GROUP BY (its own table), for A/B runs.
 */
export function runEngine(events: readonly KeyedEvent[], opts: { sink?: boolean; chain?: boolean } = {}): { eps: number; viewRows: number; cluster: LocalCluster } {
  const plan = keyedCountPlan(opts.sink ?? true);
  const t0 = now();
  const { cluster } = runInProcess(plan, { keepChangelog: false, readers: { events: readyReader(events) }, chain: opts.chain });
  const ms = now() - t0;
  const view = opts.sink === false ? null : (cluster.task('view')?.operator as SinkOperator | undefined);
  return { eps: events.length / (ms / 1000), viewRows: view ? view.rows().length : 0, cluster };
}

/** The limit: a Map from key to running totals over the same objects. */
export function runHandLoop(events: readonly KeyedEvent[]): { eps: number; view: Map<number, Totals> } {
  const t0 = now();
  const view = new Map<number, Totals>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = view.get(e.key);
    if (t === undefined) view.set(e.key, { cnt: 1, total: e.amount });
    else {
      t.cnt++;
      t.total += e.amount;
    }
  }
  return { eps: events.length / ((now() - t0) / 1000), view };
}

/**
 * RxJS groupBy + scan, each group's latest totals written into a view Map. The events are pushed
 * into a Subject that is not completed inside the timing: a stream never ends, and RxJS's teardown
 * of 100k inner subscriptions at completion is quadratic (arrRemove), which is not throughput.
 */
export function runRxjs(events: readonly KeyedEvent[]): { eps: number; view: Map<number, Totals> } {
  const view = new Map<number, Totals>();
  const input = new Subject<KeyedEvent>();
  const sub = input
    .pipe(
      rxGroupBy((e) => e.key),
      mergeMap((g) => g.pipe(scan((acc: Totals & { key: number }, e) => ({ key: acc.key, cnt: acc.cnt + 1, total: acc.total + e.amount }), { key: g.key, cnt: 0, total: 0 }))),
    )
    .subscribe((t) => view.set(t.key, { cnt: t.cnt, total: t.total }));
  const t0 = now();
  for (let i = 0; i < events.length; i++) input.next(events[i]);
  const eps = events.length / ((now() - t0) / 1000);
  sub.unsubscribe();
  return { eps, view };
}

/** @tanstack/db-ivm: groupBy with count and sum, fed in batches of 1,000, its diff applied to a view Map. */
export function runDbIvm(events: readonly KeyedEvent[], batch = 1000): { eps: number; view: Map<string, Totals> } {
  const t0 = now();
  const view = new Map<string, Totals>();
  const graph = new D2();
  const input = graph.newInput<KeyedEvent>();
  input.pipe(
    groupBy((e: KeyedEvent) => ({ key: e.key }), { cnt: count(), total: sum((e: KeyedEvent) => e.amount) }),
    output((msg) => {
      for (const [[k, row], m] of msg.getInner()) {
        if (m > 0) view.set(k, { cnt: row.cnt, total: row.total });
        else if (view.get(k)?.cnt === row.cnt) view.delete(k);
      }
    }),
  );
  graph.finalize();
  for (let i = 0; i < events.length; i += batch) {
    const part = events.slice(i, i + batch);
    input.sendData(new MultiSet(part.map((e) => [e, 1] as [KeyedEvent, number])));
    graph.run();
  }
  return { eps: events.length / ((now() - t0) / 1000), view };
}

export interface KeyedCountSize {
  events: number;
  keys: number;
  /** db-ivm and RxJS are far slower; they may see a prefix of the same events (rates stay comparable). */
  peerEvents?: number;
}

/** keyedCount.*: the four sides interleaved in one worker. */
export async function keyedCountSuite(size: KeyedCountSize, plan: RunPlan): Promise<Record<string, number>> {
  const events = keyedEvents(size.events, size.keys);
  const peer = size.peerEvents && size.peerEvents < events.length ? events.slice(0, size.peerEvents) : events;
  const r = await interleave(
    {
      engine: () => runEngine(events).eps,
      loop: () => runHandLoop(events).eps,
      rxjs: () => runRxjs(peer).eps,
      dbIvm: () => runDbIvm(peer).eps,
    },
    plan,
  );
  return {
    'keyedCount.engineEventsPerSec': r.median.engine,
    'keyedCount.handLoopEventsPerSec': r.median.loop,
    'keyedCount.rxjsEventsPerSec': r.median.rxjs,
    'keyedCount.dbIvmEventsPerSec': r.median.dbIvm,
    'keyedCount.ratioToLoop': pairedRatio(r, 'engine', 'loop'),
    'keyedCount.ratioToRxjs': pairedRatio(r, 'engine', 'rxjs'),
    'keyedCount.ratioToDbIvm': pairedRatio(r, 'engine', 'dbIvm'),
  };
}
