// Runs a bench page worker (bench/page/*.worker.ts) in a Node worker thread: `self` as the page
// worker sees it, over the thread's parentPort. Started by src/runtime/node/tsWorkerBoot.mjs with
// `workerData.file`, the worker module's URL.
import { parentPort, workerData } from 'node:worker_threads';

const port = parentPort!;
(globalThis as unknown as { self: unknown }).self = {
  postMessage: (m: unknown, transfer?: Transferable[]) => port.postMessage(m, transfer as never),
  set onmessage(f: (e: { data: unknown }) => void) {
    port.on('message', (data) => f({ data }));
  },
};
await import(workerData.file);
