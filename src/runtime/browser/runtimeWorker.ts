// The Web Worker entry: `new Worker(new URL('./runtimeWorker.ts', import.meta.url), { type: 'module' })`.
// comlink carries the control plane; records, credit and barriers use the ports deploy() hands over.
import * as Comlink from 'comlink';
import { WorkerRuntime } from '../threaded/workerRuntime.ts';
import { idbPlatform } from '../threaded/idbPlatform.ts';
import { bucketIndexedDb } from './storageBucket.ts';
import { blobInput } from './blobBytes.ts';

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

Comlink.expose(new WorkerRuntime(platform));
