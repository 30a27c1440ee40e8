// The worker_threads entry (started through tsWorkerBoot.mjs, which registers tsx first).
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { WorkerRuntime } from '../threaded/workerRuntime.ts';
import { nodePlatform } from './nodePlatform.ts';
import { installNodeSandboxFromEnv } from './sandbox/sandboxHost.ts';

if (!parentPort) throw new Error('workerEntry.ts runs only inside a worker_threads Worker');
// User code in this worker runs where the main thread said: in the sandbox, when the CLI installed one.
installNodeSandboxFromEnv();
Comlink.expose(new WorkerRuntime(nodePlatform()), nodeEndpoint(parentPort as never));
