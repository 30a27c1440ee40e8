import { loadInProcess, recordExcerpt } from '../../engine/codeHost.ts';
import type { CodeLimits, CodeSite, OperatorCodeHost } from '../../engine/codeHost.ts';
import { lineOfCode } from '../../engine/codeLines.ts';

/** What a worker that runs user code tells its watchdog around every batch or call of that code. */
export type CodeWatchMessage =
  | { t: 'busy'; node: string; what: string; record: string; batch: number; limitMs: number; per: 'batch' | 'call'; source?: string; lines?: Int32Array }
  | { t: 'idle' };

export type CodeOverrun = Extract<CodeWatchMessage, { t: 'busy' }>;

/** The key of the message that hands a runtime worker the port its watchdog listens on. */
export const CODE_WATCH_PORT = 'weirCodeWatch';

/**
 * The browser's code host: code runs in this worker (the engine worker, or a runtime worker on
 * "Run in: Web Workers"; never on the page's thread) through the shared driver, and the watchdog
 * is told when a batch starts and ends. A batch that does not end in time is stopped from outside:
 * the thread that started this worker terminates it and reports the node (a Web Worker cannot
 * interrupt its own loop). The code marks the line it runs in a shared array, so the watchdog can
 * still read it after it stopped the worker. A browser has no heap limit for a worker, so
 * `memoryMb` bounds what the code hands back per batch instead (answerBound).
 */
export function watchedCodeHost(limits: CodeLimits, post: (m: CodeWatchMessage) => void): OperatorCodeHost {
  const limitMs = limits.timeoutMs;
  const shared = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return {
    load(site, js, form) {
      const lines = shared ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
      const code = loadInProcess(site, js, form, lines, limits.memoryMb);
      const watched = <T>(per: 'batch' | 'call', first: unknown, batch: number, f: () => T): T => {
        post({ t: 'busy', node: site.nodeId, what: site.what, record: first === undefined ? '' : recordExcerpt(first), batch, limitMs, per, source: sourceOf(site), lines });
        try {
          return f();
        } finally {
          post({ t: 'idle' });
        }
      };
      return {
        shape: code.shape,
        callEach: (mode, rows) => watched('batch', rows[0], rows.length, () => code.callEach(mode, rows)),
        invoke: (request) => watched('call', (request as { row?: unknown }).row, 1, () => code.invoke(request)),
        invokeEach: (requests) => watched('batch', (requests[0] as { row?: unknown } | undefined)?.row, requests.length, () => code.invokeEach(requests)),
      };
    },
  };
}

const sourceOf = (site: CodeSite): string | undefined => (site.source && site.source.length <= 20_000 ? site.source : undefined);

/**
 * The watchdog, on the thread that started the worker running the code: a batch still running
 * after its limit cannot be interrupted from inside, so `overrun` is called once with that batch
 * (it terminates the worker). Every message restarts the clock; 'idle' stops it.
 */
export function watchCodePort(port: MessagePort, overrun: (m: CodeOverrun) => void, timers: WatchTimers = browserTimers): void {
  let timer: unknown = null;
  port.onmessage = (e: MessageEvent<CodeWatchMessage>) => {
    if (timer) timers.clear(timer);
    timer = null;
    const m = e.data;
    if (m.t === 'busy')
      timer = timers.set(() => {
        port.onmessage = null;
        port.close();
        overrun(m);
      }, m.limitMs);
  };
}

interface WatchTimers {
  set(cb: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

// Called as plain functions: a browser's setTimeout refuses any other `this` ("Illegal invocation").
const browserTimers: WatchTimers = { set: (cb, ms) => setTimeout(cb, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/** Why the run stopped, naming the node, the limit, the record and the line the code was in. */
export function overrunMessage(m: CodeOverrun): string {
  const line = lineOfCode(m.source, m.lines?.[0] ?? 0);
  const records = m.per === 'call' ? (m.record ? ` (record ${m.record})` : '') : ` (a batch of ${m.batch}, first record ${m.record})`;
  return `node "${m.node}": ${m.what} ran longer than the ${m.limitMs} ms limit per ${m.per}${records}${line ? `, in ${line}` : ''}; the run was stopped. Fix the code or raise settings.code.timeoutMs`;
}
