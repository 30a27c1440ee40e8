// The Web Worker entry: `new Worker(new URL('./runtimeWorker.ts', import.meta.url), { type: 'module' })`.
// comlink carries the control plane; records, credit and barriers use the ports deploy() hands over.
import * as Comlink from 'comlink';
import { WorkerRuntime } from '../threaded/workerRuntime.ts';
import { idbPlatform } from '../threaded/idbPlatform.ts';
import { bucketIndexedDb } from './storageBucket.ts';

const platform = idbPlatform({
  // Real IndexedDB is shared by every worker of the origin, so chunk handles survive a killed worker.
  factory: async (spec) => (spec.storageBucket ? bucketIndexedDb(spec.storageBucket) : indexedDB),
  chunkedCheckpoints: true,
});

Comlink.expose(new WorkerRuntime(platform));
