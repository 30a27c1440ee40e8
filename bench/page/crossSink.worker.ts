/// <reference lib="webworker" />
// The aggregate side of the cross-worker pair: the engine's own GROUP BY and view operators
// (NodeTask + MemoryStateBackend), fed by the batches that arrive on the channel and decoded by the
// threaded runtime's codec.
import { NodeTask } from '../../src/engine/nodeTask.ts';
import { operatorDefinition } from '../../src/engine/registry.ts';
import { ManualClock } from '../../src/engine/time/clock.ts';
import { seededRng } from '../../src/engine/rng.ts';
import { MemoryStateBackend } from '../../src/state/memory/memoryBackend.ts';
import { decodeBatch } from '../../src/runtime/threaded/codec.ts';
import type { StateTime } from '../../src/state/backend.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import type { OnChannel } from './crossWorkerProtocol.ts';

function task(id: string): NodeTask {
  const plan = keyedCountPlan();
  const node = plan.nodes.find((n) => n.id === id)!;
  const clock = new ManualClock(0);
  let t: NodeTask | null = null;
  const time: StateTime = { processingTime: () => 0, eventTime: () => t!.currentEventTime() };
  t = new NodeTask(node, operatorDefinition(node.kind), new MemoryStateBackend(time, plan.maxParallelism), clock, seededRng(1), () => {});
  t.open();
  return t;
}

self.onmessage = (e: MessageEvent<{ port: MessagePort }>) => {
  const port = e.data.port;
  let totals = task('totals');
  let view = task('view');
  let rawView = new Map<number, number>();
  let events = 0;
  port.onmessage = (ev: MessageEvent<OnChannel>) => {
    const m = ev.data;
    if (m.t === 'begin') {
      totals = task('totals');
      view = task('view');
      rawView = new Map();
      events = 0;
    } else if (m.t === 'wire') {
      const els = decodeBatch(m.batch);
      events += els.length;
      totals.processBatch('in', els);
      const out = totals.drain()?.get('out');
      if (out) view.processBatch('in', out);
      view.drain();
      port.postMessage({ t: 'ack' } satisfies OnChannel);
    } else if (m.t === 'raw') {
      // The limit only touches every record: transport, not aggregation, is what it measures.
      let s = 0;
      for (let i = 0; i < m.keys.length; i++) s += m.keys[i] + m.amounts[i];
      rawView.set(events, s);
      events += m.keys.length;
      port.postMessage({ t: 'ack' } satisfies OnChannel);
    } else if (m.t === 'end') {
      const viewRows = rawView.size ? 0 : view.state.keys('row').length;
      port.postMessage({ t: 'finished', events, viewRows } satisfies OnChannel);
    }
  };
};
