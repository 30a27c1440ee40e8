import { idbPlatform } from '../threaded/idbPlatform.ts';
import type { WorkerPlatform } from '../threaded/workerRuntime.ts';
import { openFileInput } from './fileBytes.ts';

/**
 * Node workers: `--state indexeddb` runs the IndexedDB backend on fake-indexeddb. That database
 * lives in the worker's memory and dies with it, so checkpoints keep the keyed state inline in
 * the checkpoint store (--state-dir) rather than as chunk handles into a database that a
 * restarted worker would not have. Inputs given by path are opened here and read in blocks.
 */
export function nodePlatform(): WorkerPlatform {
  const platform = idbPlatform({
    factory: async () => {
      try {
        // The `auto` entry also installs IDBRequest, IDBKeyRange... as globals, which idb relies on.
        await import('./fakeIndexedDbGlobals.ts');
      } catch {
        throw new Error('--state indexeddb in Node needs the fake-indexeddb package (npm install fake-indexeddb); or use --state memory');
      }
      return (globalThis as { indexedDB: IDBFactory }).indexedDB;
    },
    chunkedCheckpoints: false,
    locks: null,
  });
  // The CLI's files go to workers by path: the worker of a source reads its file in blocks.
  platform.openFile = (input) => {
    if (!('path' in input)) throw new Error(`the input of a source is the browser file ${input.name}, which a Node worker cannot read; give it by path`);
    return openFileInput(input);
  };
  return platform;
}
