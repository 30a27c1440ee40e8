// crossWorker's stages one by one in one thread (no port, no second core): what each side of the boundary spends
// per record, `clock` giving milliseconds (CPU time in Node, wall time in a browser). Used by
// bench/profile/crossStages.ts (Node) and crossStagesPage.ts (a Chromium worker).
import { SourceTask } from '../../src/engine/sourceTask.ts';
import { decodeBatch, encodeBatch, type WireBatch } from '../../src/runtime/threaded/codec.ts';
import { keyedEvents, readyReader } from './events.ts';
import { keyedCountPlan } from './keyedCountDoc.ts';
import { passThroughPlan } from './passThroughDoc.ts';
import { nodeTask, throughChain, touch } from './nodeTasks.ts';

export type StageFigures = Record<'poll' | 'send' | 'decode' | 'passRecv' | 'engineRecv' | 'single', number>;

/** One round of every stage over `events` keyed events in batches of `batch`: ns per record each. */
export function crossStages(events: number, batch: number, clock: () => number): () => StageFigures {
  const rows = keyedEvents(events, 100_000);
  const source = () => new SourceTask('events', readyReader(rows), { schema: { key: 'integer', amount: 'number' } });
  const per = (t0: number) => ((clock() - t0) * 1e6) / events;
  return () => {
    let task = source();
    let n = 0;
    let t0 = clock();
    while (!task.done()) n += task.poll(batch).elements.length;
    const poll = per(t0);
    if (n !== events) throw new Error('lost records');
    // Poll + encode; the wire batches are kept (nothing detaches them here) for the receiving stages.
    task = source();
    const wires: WireBatch[] = [];
    t0 = clock();
    while (!task.done()) wires.push(encodeBatch(task.poll(batch).elements, 'columnar', []));
    const send = per(t0);
    n = 0;
    t0 = clock();
    for (const w of wires) n += decodeBatch(w).length;
    const decode = per(t0);
    if (n !== events) throw new Error('lost records');
    const pass = [nodeTask(passThroughPlan(), 'pass')];
    let sum = 0;
    t0 = clock();
    for (const w of wires) sum += touch(throughChain(pass, decodeBatch(w)));
    const passRecv = per(t0);
    if (!Number.isFinite(sum)) throw new Error('bad sum');
    let chain = [nodeTask(keyedCountPlan(), 'totals'), nodeTask(keyedCountPlan(), 'view')];
    t0 = clock();
    for (const w of wires) throughChain(chain, decodeBatch(w));
    const engineRecv = per(t0);
    chain = [nodeTask(keyedCountPlan(), 'totals'), nodeTask(keyedCountPlan(), 'view')];
    task = source();
    t0 = clock();
    while (!task.done()) throughChain(chain, task.poll(batch).elements);
    const single = per(t0);
    return { poll, send, decode, passRecv, engineRecv, single };
  };
}
