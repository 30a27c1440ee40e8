import { DEFAULT_CODE_LIMITS, loadInProcess, recordExcerpt } from '../engine/codeHost.ts';
import type { CodeSite, OperatorCodeHost } from '../engine/codeHost.ts';
import type { PipelineDocument } from '../pipeline/document.ts';

/** What the engine worker tells the page's watchdog around every batch or call of user code. */
export type CodeWatchMessage =
  | { t: 'busy'; node: string; what: string; record: string; batch: number; limitMs: number; per: 'batch' | 'call'; source?: string; lines?: Int32Array }
  | { t: 'idle' };

/**
 * The designer's code host: code runs in this engine worker (never on the page's thread) through
 * the shared driver, and the page is told when a batch starts and ends. A batch that does not end
 * in time is stopped from outside: the page's watchdog terminates this worker and reports the node
 * (a Web Worker cannot interrupt its own loop). The code marks the line it runs in a shared
 * array, so the page can still read it after it stopped the worker.
 */
export function watchedCodeHost(doc: PipelineDocument, post: (m: CodeWatchMessage) => void): OperatorCodeHost {
  const limitMs = doc.settings?.code?.timeoutMs ?? DEFAULT_CODE_LIMITS.timeoutMs;
  const shared = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return {
    load(site, js, form) {
      const lines = shared ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
      const code = loadInProcess(site, js, form, lines);
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
