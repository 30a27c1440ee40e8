// The worker_threads entry (started through tsWorkerBoot.mjs, which registers tsx first).
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { WorkerRuntime } from '../threaded/workerRuntime.ts';
import { nodePlatform } from './nodePlatform.ts';

if (!parentPort) throw new Error('workerEntry.ts runs only inside a worker_threads Worker');
Comlink.expose(new WorkerRuntime(nodePlatform()), nodeEndpoint(parentPort as never));
