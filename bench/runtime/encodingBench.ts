// Measures record batches crossing a worker_threads boundary in three encodings, end to end
// (encode, postMessage, decode, keyed count). Run: node --import tsx bench/runtime/encodingBench.ts
import { Worker } from 'node:worker_threads';
import type { Element } from '../../src/core/types.ts';
import { encodeBatch } from '../../src/runtime/threaded/codec.ts';
import type { BatchEncoding, WireBatch } from '../../src/runtime/threaded/codec.ts';

const boot = new URL('../../src/runtime/node/tsWorkerBoot.mjs', import.meta.url);
const entry = new URL('./encodingBenchWorker.ts', import.meta.url).href;

function rows(n: number, keys: number): Element[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: '+I' as const,
    row: { tx_id: `tx-${i}`, store_id: `store-${i % keys}`, product: ['tea', 'coffee', 'cake'][i % 3], quantity: 1 + (i % 5), amount: (i % 997) / 10, ts: 1_700_000_000_000 + i },
    ts: 1_700_000_000_000 + i,
  }));
}

async function measure(mode: BatchEncoding | 'json', batchSize: number, total: number, credit = 8): Promise<number> {
  const w = new Worker(boot, { workerData: { entry } });
  const data = rows(total, 1000);
  let inFlight = 0;
  let wake: (() => void) | null = null;
  let done: ((v: { seen: number }) => void) | null = null;
  let ready: (() => void) | null = null;
  w.on('message', (m: { credit?: number; seen: number; ready?: boolean }) => {
    if (m.ready) ready?.();
    else if (m.credit !== undefined) {
      inFlight -= m.credit;
      wake?.();
    } else done?.(m);
  });
  await new Promise<void>((r) => (ready = r)); // tsx compiles the worker first
  const t0 = performance.now();
  for (let i = 0; i < total; i += batchSize) {
    while (inFlight >= credit) await new Promise<void>((r) => (wake = r));
    const els = data.slice(i, i + batchSize);
    const transfer: Transferable[] = [];
    if (mode === 'json') w.postMessage({ json: JSON.stringify([{ enc: 'plain', els }]) });
    else w.postMessage({ batches: [encodeBatch(els, mode, transfer)] satisfies WireBatch[] }, transfer as never);
    inFlight++;
  }
  const res = await new Promise<{ seen: number }>((r) => {
    done = r;
    w.postMessage({ done: true });
  });
  const ms = performance.now() - t0;
  await w.terminate();
  if (res.seen !== total) throw new Error(`lost records: ${res.seen} of ${total}`);
  return total / (ms / 1000);
}

const total = Number(process.argv[2] ?? 400_000);
for (const batch of [128, 512, 2048]) {
  for (const mode of ['plain', 'columnar', 'json'] as const) {
    const best = Math.max(await measure(mode, batch, total), await measure(mode, batch, total));
    console.log(`${mode.padEnd(9)} batch ${String(batch).padStart(5)}: ${(best / 1e6).toFixed(2)} M records/s`);
  }
}
