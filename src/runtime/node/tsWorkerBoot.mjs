// A worker_threads entry cannot be a .ts file directly (Node 20 ignores `--import tsx` in a
// worker's execArgv for the entry module), so every worker starts here: register tsx in this
// thread, then import the TypeScript entry named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
