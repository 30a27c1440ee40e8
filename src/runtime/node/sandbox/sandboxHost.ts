import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { CODE_DRIVER_SOURCE } from '../../../engine/codeDriver.ts';
import { CodeLimitError, checkLoaded, eachRequest, installCodeHost, readAnswer, readEach, readOutcomes, recordExcerpt } from '../../../engine/codeHost.ts';
import type { CodeForm } from '../../../engine/codeDriver.ts';
import { lineOfCode } from '../../../engine/codeLines.ts';
import type { CodeLimits, CodeSite, LoadedCode, OperatorCodeHost } from '../../../engine/codeHost.ts';
import type { Row } from '../../../core/types.ts';
import { UdfError } from '../../../expr/udf.ts';

/** Where the sandbox scripts are and which limits hold; travels to worker threads in the environment. */
interface SandboxConfig extends CodeLimits {
  realm: string;
  bridge: string;
}

const ENV = 'WEIR_CODE_SANDBOX';

type Reply =
  | { t: 'ok'; value: string }
  | { t: 'timeout'; at: number; line: number }
  | { t: 'threw'; message: string }
  | { t: 'error'; message: string }
  | { t: 'died'; code: number | null; signal: string | null; stderr: string };

/**
 * The CLI's code host: user code runs in a separate Node process under the permission model
 * (it may read only its own script; no fs writes, no child processes, no workers, no addons),
 * with a bounded heap, each node's code in a vm context of its own (no process, require, import,
 * timers or network APIs). The operator's thread blocks on a shared flag for the answer while a
 * bridge thread does the asynchronous talking; one crossing carries a whole batch of records.
 */
class SandboxHost implements OperatorCodeHost {
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 0;
  private dead: string | null = null;

  constructor(private readonly config: SandboxConfig) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const execArgv = ['--experimental-permission', `--allow-fs-read=${config.realm}`, `--max-old-space-size=${config.memoryMb}`, '--no-warnings'];
    const bridge = new Worker(config.bridge, { workerData: { port: port2, flag: this.flag.buffer, realm: config.realm, execArgv }, transferList: [port2], name: 'weir-code-bridge' });
    bridge.unref();
    this.port.unref();
  }

  load(site: CodeSite, js: string, form: CodeForm = 'function'): LoadedCode {
    const id = `${site.nodeId}#${this.nextId++}`;
    // The first load also starts the code host process, which takes a moment on a busy machine.
    const r = this.request({ t: 'load', id, js, form, driver: CODE_DRIVER_SOURCE, timeoutMs: this.config.timeoutMs }, site, 20_000);
    if (r.t === 'timeout') throw new CodeLimitError(`node "${site.nodeId}": ${site.what} ran longer than the ${this.config.timeoutMs} ms limit while it was being loaded${whereInCode(site, r.line)}`, raise('timeout'));
    if (r.t === 'threw') throw new UdfError(`${site.what} threw while it was being loaded: ${r.message}`, 1, 1);
    if (r.t !== 'ok') throw this.failure(r, site, 0);
    const shape = checkLoaded(site, form, r.value);
    const limit = this.config.timeoutMs;
    return {
      shape,
      callEach: (mode, rows) => {
        const reply = this.request({ t: 'call', id, mode, rows: JSON.stringify(rows), timeoutMs: limit }, site, limit + 10_000);
        if (reply.t === 'ok') return readOutcomes(reply.value, site);
        throw this.failure(reply, site, rows.length, rows);
      },
      invoke: (request) => {
        const reply = this.request({ t: 'invoke', id, request: JSON.stringify(request), timeoutMs: limit }, site, limit + 10_000);
        if (reply.t === 'ok') return readAnswer(reply.value, site);
        throw this.failure(reply, site, 1, 'row' in request ? [(request as { row: Row }).row] : [], 'per call');
      },
      invokeEach: (requests) => {
        const reply = this.request({ t: 'invoke', id, request: eachRequest(requests), timeoutMs: limit }, site, limit + 10_000);
        if (reply.t === 'ok') return readEach(reply.value, site);
        throw this.failure(reply, site, requests.length, requests.map((r) => (r as { row?: Row }).row ?? {}));
      },
    };
  }

  private request(m: object, site: CodeSite, waitMs: number): Reply {
    if (this.dead) throw new CodeLimitError(this.dead);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(m);
    // A notify from the previous answer can arrive late and wake this wait early: only the flag counts.
    const deadline = performance.now() + waitMs;
    while (Atomics.load(this.flag, 0) === 0) {
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === 'timed-out') break;
    }
    const got = receiveMessageOnPort(this.port);
    if (!got) {
      this.dead = `node "${site.nodeId}": the code host process did not answer within ${waitMs} ms`;
      this.port.postMessage({ t: 'close' });
      throw new CodeLimitError(this.dead);
    }
    return got.message as Reply;
  }

  private failure(r: Reply, site: CodeSite, n: number, rows: readonly Row[] = [], per = 'per batch'): Error {
    if (r.t === 'timeout') {
      const at = r.at >= 0 && r.at < rows.length ? r.at : rows.length ? 0 : -1;
      const which = r.at >= 0 && r.at < rows.length ? ` at record ${r.at + 1} of a batch of ${n}: ${recordExcerpt(rows[r.at])}` : rows.length ? ` at record ${recordExcerpt(rows[0])}` : '';
      return ofRecord(new CodeLimitError(`node "${site.nodeId}": ${site.what} ran longer than the ${this.config.timeoutMs} ms limit ${per}${which}${whereInCode(site, r.line)}`, raise('timeout')), at);
    }
    if (r.t === 'died') {
      const oom = r.signal === 'SIGABRT' || r.code === 134 || /heap limit|out of memory/i.test(r.stderr);
      if (!oom) return new CodeLimitError((this.dead = `node "${site.nodeId}": the code host process ended (${r.signal ? `signal ${r.signal}` : `exit code ${r.code}`}) while running ${site.what}`));
      const e = new CodeLimitError(`node "${site.nodeId}": ${site.what} used more than the ${this.config.memoryMb} MB memory limit (in a batch of ${n} record${n === 1 ? '' : 's'}${rows.length ? `, the first ${recordExcerpt(rows[0])}` : ''})`, raise('memory'));
      this.dead = e.message;
      return ofRecord(e, rows.length ? 0 : -1);
    }
    return new CodeLimitError(`node "${site.nodeId}": the code host failed: ${(r as { message?: string }).message ?? r.t}`);
  }
}

/** The error, knowing which of the records handed over it stopped at (-1: none), so its source line can be named. */
function ofRecord(e: CodeLimitError, at: number): CodeLimitError {
  if (at >= 0) e.record = at;
  return e;
}

/** ", in line 3 of the code: while (true) {}" when the code marked a line before it was stopped. */
export const whereInCode = (site: CodeSite, line: number): string => {
  const text = lineOfCode(site.source, line);
  return text ? `, in ${text}` : '';
};

const raise = (what: 'timeout' | 'memory'): string =>
  what === 'timeout'
    ? 'fix the code (a loop that never ends?) or raise the limit with --code-timeout <ms> or settings.code.timeoutMs'
    : 'fix the code or raise the limit with --code-memory <MB> or settings.code.memoryMb';

/** Runs this thread's user code in the sandbox, and every worker thread's started from now on. */
export function installNodeSandbox(limits: CodeLimits): void {
  const config: SandboxConfig = { ...limits, realm: fileURLToPath(new URL('./realm.mjs', import.meta.url)), bridge: fileURLToPath(new URL('./bridge.mjs', import.meta.url)) };
  process.env[ENV] = JSON.stringify(config);
  installCodeHost(new SandboxHost(config));
}

/** In a worker thread: the sandbox the main thread installed, if it did. */
export function installNodeSandboxFromEnv(): void {
  const raw = process.env[ENV];
  if (raw) installCodeHost(new SandboxHost(JSON.parse(raw) as SandboxConfig));
}
