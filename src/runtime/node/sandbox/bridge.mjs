// Runs on a worker thread of the host process. The thread that runs operators blocks on a shared
// flag while this thread talks to the sandboxed code host process asynchronously, so operators
// keep their synchronous calls while the code runs in another process. It also watches that
// process: when it dies (out of memory, say), the blocked thread gets an answer saying how.
import { workerData } from 'node:worker_threads';
import { fork } from 'node:child_process';

const { port, flag, realm, execArgv } = workerData;
const state = new Int32Array(flag);
let child = null;
let pending = false;
let died = null;
let stderr = '';

function reply(m) {
  pending = false;
  port.postMessage(m);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

function start() {
  child = fork(realm, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.on('message', (m) => reply(m));
  child.on('error', (e) => {
    died ??= { t: 'died', code: null, signal: null, stderr: `${stderr}\n${e.message}` };
    if (pending) reply(died);
  });
  child.on('exit', (code, signal) => {
    died ??= { t: 'died', code, signal, stderr };
    if (pending) reply(died);
  });
}

port.on('message', (m) => {
  if (m.t === 'close') {
    child?.kill('SIGKILL');
    port.close();
    return;
  }
  pending = true;
  if (died) return reply(died);
  if (!child) start();
  child.send(m);
});
