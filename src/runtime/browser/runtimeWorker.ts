// The Web Worker entry: `new Worker(new URL('./runtimeWorker.ts', import.meta.url), { type: 'module' })`.
// comlink carries the control plane; records, credit and barriers use the ports deploy() hands over.
import * as Comlink from 'comlink';
import { WorkerRuntime } from '../threaded/workerRuntime.ts';
import { idbPlatform } from '../threaded/idbPlatform.ts';
import { bucketIndexedDb } from './storageBucket.ts';
import { blobInput } from './blobBytes.ts';
import { installCodeHost } from '../../engine/codeHost.ts';
import { CODE_WATCH_PORT, watchedCodeHost } from './watchedCodeHost.ts';
import type { CodeWatchMessage } from './watchedCodeHost.ts';

const platform = idbPlatform({
  // Real IndexedDB is shared by every worker of the origin, so chunk handles survive a killed worker.
  factory: async (spec) => (spec.storageBucket ? bucketIndexedDb(spec.storageBucket) : indexedDB),
  chunkedCheckpoints: true,
});

// A file the person gave in the designer arrives as a Blob; this worker reads it in blocks.
platform.openFile = (input) => {
  if (!('blob' in input)) throw new Error(`the input of a source is the file ${input.path}, and a browser worker cannot open files by path; give the file itself`);
  return blobInput(input);
};

// User code runs under the watchdog of the thread that started this worker (browserSpawn.ts): it
// sends the port first, before any comlink call, and only this listener sees that message.
let watch: MessagePort | null = null;
self.addEventListener('message', (e: MessageEvent) => {
  const port = (e.data as Record<string, unknown> | null)?.[CODE_WATCH_PORT];
  if (!(port instanceof MessagePort)) return;
  e.stopImmediatePropagation();
  watch = port;
});
const init = platform.init;
platform.init = async (spec) => {
  // Operators built by this deploy load their code through the watched host.
  installCodeHost(watchedCodeHost(spec.codeLimits, (m: CodeWatchMessage) => watch?.postMessage(m)));
  await init?.(spec);
};

Comlink.expose(new WorkerRuntime(platform));
