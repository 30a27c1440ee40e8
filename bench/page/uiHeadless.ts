import type { HeadlessReply, HeadlessRequest } from './uiHeadless.worker.ts';

/** One headless measurement in a fresh worker: source records per second of the document at max speed. */
export function uiHeadless(req: HeadlessRequest): Promise<HeadlessReply> {
  const w = new Worker(new URL('./uiHeadless.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    w.onmessage = (e: MessageEvent<HeadlessReply>) => {
      w.terminate();
      resolve(e.data);
    };
    w.onerror = (e) => {
      w.terminate();
      resolve({ ok: false, error: `headless worker error: ${e.message}` });
    };
    w.postMessage(req);
  });
}
