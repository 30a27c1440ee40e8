// Receiving side of encodingBench.ts: decodes batches and keeps a keyed count, as a keyed operator would.
import { parentPort } from 'node:worker_threads';
import { decodeBatch } from '../../src/runtime/threaded/codec.ts';
import type { WireBatch } from '../../src/runtime/threaded/codec.ts';

const counts = new Map<unknown, number>();
let seen = 0;
parentPort!.on('message', (m: { batches?: WireBatch[]; json?: string; done?: boolean }) => {
  if (m.done) return parentPort!.postMessage({ seen, keys: counts.size });
  const batches = m.json ? (JSON.parse(m.json) as WireBatch[]) : m.batches!;
  for (const b of batches) {
    for (const e of decodeBatch(b)) {
      counts.set(e.row.store_id, (counts.get(e.row.store_id) ?? 0) + 1);
      seen++;
    }
  }
  parentPort!.postMessage({ credit: batches.length });
});
parentPort!.postMessage({ ready: true });
