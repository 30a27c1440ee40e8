import { DEFAULT_CODE_LIMITS, inProcessCodeHost, recordExcerpt } from '../engine/codeHost.ts';
import type { OperatorCodeHost } from '../engine/codeHost.ts';
import type { PipelineDocument } from '../pipeline/document.ts';

/** What the engine worker tells the page's watchdog around every batch of user code. */
export type CodeWatchMessage = { t: 'busy'; node: string; what: string; record: string; batch: number; limitMs: number } | { t: 'idle' };

/**
 * The designer's code host: code runs in this engine worker (never on the page's thread) through
 * the shared driver, and the page is told when a batch starts and ends. A batch that does not end
 * in time is stopped from outside: the page's watchdog terminates this worker and reports the node
 * (a Web Worker cannot interrupt its own loop).
 */
export function watchedCodeHost(doc: PipelineDocument, post: (m: CodeWatchMessage) => void): OperatorCodeHost {
  const limitMs = doc.settings?.code?.timeoutMs ?? DEFAULT_CODE_LIMITS.timeoutMs;
  return {
    load(site, js) {
      const code = inProcessCodeHost.load(site, js);
      return {
        callEach(mode, rows) {
          post({ t: 'busy', node: site.nodeId, what: site.what, record: recordExcerpt(rows[0]), batch: rows.length, limitMs });
          try {
            return code.callEach(mode, rows);
          } finally {
            post({ t: 'idle' });
          }
        },
      };
    },
  };
}
