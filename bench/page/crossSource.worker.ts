/// <reference lib="webworker" />
// The source side of the cross-worker pair: the engine's SourceTask turns the ready events into
// elements, encoded as the threaded runtime encodes them between workers (columnar, typed arrays
// transferred); or (raw) the same records go out as transferred typed arrays; or (single) the
// keyed count's operators run right here, in the source's worker, with nothing encoded.
import { SourceTask } from '../../src/engine/sourceTask.ts';
import { encodeBatch } from '../../src/runtime/threaded/codec.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { nodeTask, throughChain } from '../lib/nodeTasks.ts';
import { now } from '../lib/stats.ts';
import type { CrossMode, OnChannel, SourceReply, ToSource } from './crossWorkerProtocol.ts';

let port: MessagePort;
let events: KeyedEvent[] = [];
let batch = 1024;
let window = 16;

const reply = (m: SourceReply) => (self as unknown as Worker).postMessage(m);
const sourceTask = () => new SourceTask('events', readyReader(events), { schema: { key: 'integer', amount: 'number' } });

self.onmessage = (e: MessageEvent<ToSource>) => {
  const m = e.data;
  if (m.t === 'setup') {
    port = m.port;
    events = keyedEvents(m.events, m.keys);
    batch = m.batch;
    window = m.window;
    reply({ t: 'ready' });
  } else if (m.mode === 'single') runSingle();
  else void runAcross(m.mode);
};

/** The keyed count in this one worker: the same SourceTask, GROUP BY and view as `engine`, the same batches. */
function runSingle(): void {
  const plan = keyedCountPlan();
  const t0 = now();
  const chain = [nodeTask(plan, 'totals'), nodeTask(plan, 'view')];
  const task = sourceTask();
  let n = 0;
  while (!task.done()) {
    const poll = task.poll(batch);
    n += poll.elements.length;
    throughChain(chain, poll.elements);
  }
  const ms = now() - t0;
  reply({ t: 'done', mode: 'single', ms, busyMs: ms, events: n, viewRows: chain[1].state.keys('row').length });
}

async function runAcross(mode: Exclude<CrossMode, 'single'>): Promise<void> {
  const send = (msg: OnChannel, transfer: Transferable[] = []) => port.postMessage(msg, transfer);
  let inFlight = 0;
  let wake: (() => void) | null = null;
  let finished: { events: number; viewRows: number; busyMs: number } | null = null;
  let busyMs = 0;
  let onFinished: (() => void) | null = null;
  port.onmessage = (ev: MessageEvent<OnChannel>) => {
    if (ev.data.t === 'ack') {
      inFlight--;
      wake?.();
    } else if (ev.data.t === 'finished') {
      finished = ev.data;
      onFinished?.();
    }
  };
  const credit = async () => {
    while (inFlight >= window) await new Promise<void>((r) => (wake = r));
    wake = null;
  };
  send({ t: 'begin', mode });
  const t0 = now();
  if (mode !== 'raw') {
    const task = sourceTask();
    while (!task.done()) {
      await credit();
      const b0 = now();
      const poll = task.poll(batch);
      inFlight++;
      const transfer: Transferable[] = [];
      send({ t: 'wire', batch: encodeBatch(poll.elements, 'columnar', transfer) }, transfer);
      busyMs += now() - b0;
    }
  } else {
    for (let i = 0; i < events.length; i += batch) {
      await credit();
      const b0 = now();
      const n = Math.min(batch, events.length - i);
      const keys = new Int32Array(n);
      const amounts = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        keys[j] = events[i + j].key;
        amounts[j] = events[i + j].amount;
      }
      inFlight++;
      send({ t: 'raw', keys, amounts }, [keys.buffer, amounts.buffer]);
      busyMs += now() - b0;
    }
  }
  send({ t: 'end' });
  if (!finished) await new Promise<void>((r) => (onFinished = r));
  const ms = now() - t0;
  const f = finished as unknown as { events: number; viewRows: number; busyMs: number };
  reply({ t: 'done', mode, ms, busyMs: busyMs + f.busyMs, events: f.events, viewRows: f.viewRows });
}
