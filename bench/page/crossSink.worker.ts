/// <reference lib="webworker" />
// The receiving side of the cross-worker pair: batches arrive on the channel, are decoded by the
// threaded runtime's codec and go through the engine's own operators (NodeTask + memory backend):
// GROUP BY + view for the keyed count, or map + blackhole for the pass-through pipeline.
import { decodeBatch } from '../../src/runtime/threaded/codec.ts';
import type { NodeTask } from '../../src/engine/nodeTask.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { passThroughPlan } from '../lib/passThroughDoc.ts';
import { nodeTask, throughChain, touch } from '../lib/nodeTasks.ts';
import type { CrossMode, OnChannel } from './crossWorkerProtocol.ts';
import { now } from '../lib/stats.ts';

function chainFor(mode: CrossMode): NodeTask[] {
  if (mode === 'engine') return [nodeTask(keyedCountPlan(), 'totals'), nodeTask(keyedCountPlan(), 'view')];
  if (mode === 'passThrough') return [nodeTask(passThroughPlan(), 'pass')];
  return [];
}

self.onmessage = (e: MessageEvent<{ port: MessagePort }>) => {
  const port = e.data.port;
  let mode: CrossMode = 'engine';
  let chain: NodeTask[] = [];
  let events = 0;
  let sum = 0;
  let out = 0;
  let busyMs = 0;
  port.onmessage = (ev: MessageEvent<OnChannel>) => {
    const m = ev.data;
    const t0 = now();
    if (m.t === 'begin') {
      mode = m.mode;
      chain = chainFor(mode);
      events = 0;
      sum = 0;
      out = 0;
      busyMs = 0;
    } else if (m.t === 'wire') {
      const els = decodeBatch(m.batch);
      events += els.length;
      const res = throughChain(chain, els);
      if (mode === 'passThrough') {
        sum += touch(res);
        out += res.length;
      }
      port.postMessage({ t: 'ack' } satisfies OnChannel);
    } else if (m.t === 'raw') {
      // The limit only touches every record: transport, not operators, is what it measures.
      for (let i = 0; i < m.keys.length; i++) sum += m.keys[i] + m.amounts[i];
      events += m.keys.length;
      out += Number.isFinite(sum) ? m.keys.length : 0;
      port.postMessage({ t: 'ack' } satisfies OnChannel);
    } else if (m.t === 'end') {
      // The keyed count reports its view's size; the others the records that reached the sink (the checksum keeps the loops live).
      const viewRows = mode === 'engine' ? chain[1].state.keys('row').length : out;
      port.postMessage({ t: 'finished', events, viewRows, busyMs } satisfies OnChannel);
    }
    if (m.t === 'wire' || m.t === 'raw') busyMs += now() - t0;
  };
};
