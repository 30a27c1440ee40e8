import type { FeedClose, FeedTransport } from '../../engine/feedConnection.ts';

/**
 * Reads a text/event-stream as the HTML standard defines it: `data:` lines join with a newline,
 * `id:` sets the last event id, a blank line dispatches the event; comments and other fields are
 * skipped. Fed in chunks of text, it keeps a partial line for the next one.
 */
export class SseParser {
  private partial = '';
  private data: string[] = [];
  private hasData = false;
  private id: string | undefined;
  /** Chunks may split a CRLF: a CR ending one chunk makes a LF opening the next one not a new line. */
  private afterCr = false;

  constructor(private readonly emit: (data: string, id: string | undefined) => void) {}

  push(chunk: string): void {
    let text = chunk;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    const lines = (this.partial + text).split(/\r\n|\r|\n/);
    this.partial = lines.pop()!;
    for (const l of lines) this.line(l);
  }

  private line(l: string): void {
    if (l === '') {
      if (this.hasData) this.emit(this.data.join('\n'), this.id);
      this.data = [];
      this.hasData = false;
      return;
    }
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? '' : l.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    } else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}

const STATUS_TEXT: Record<number, string> = { 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 410: 'Gone', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** An HTTP answer that is not an event stream: 204 and most 4xx end the feed; 5xx, 408 and 429 may pass. */
export function httpClose(status: number, statusText: string): FeedClose {
  const text = `HTTP ${status} ${statusText || STATUS_TEXT[status] || ''}`.trim();
  if (status === 204) return { kind: 'http', text: `${text}: the server says the feed is over`, retry: false, clean: true };
  return { kind: 'http', text, retry: status >= 500 || status === 408 || status === 429 };
}

/**
 * A feed over Server-Sent Events, read with fetch (in a worker and in Node alike) rather than
 * EventSource, which hides the HTTP status and reconnects on its own schedule. Each event's data
 * is one message; the last event id goes back as Last-Event-ID when reconnecting.
 */
export function sseTransport(fetchFn: typeof fetch): FeedTransport {
  return (url, lastEventId, on) => {
    const abort = new AbortController();
    let done = false;
    const closeOnce = (why: FeedClose) => {
      if (done) return;
      done = true;
      on.close(why);
    };
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    void (async () => {
      let res: Response;
      try {
        res = await fetchFn(url, { headers, signal: abort.signal, cache: 'no-store' });
      } catch (e) {
        return closeOnce({ kind: 'network', text: `could not reach ${url}: ${networkReason(e)}`, retry: true });
      }
      if (res.status !== 200) {
        void res.body?.cancel().catch(() => undefined);
        return closeOnce(httpClose(res.status, res.statusText));
      }
      const type = res.headers.get('content-type') ?? '';
      if (!/^text\/event-stream/i.test(type)) {
        void res.body?.cancel().catch(() => undefined);
        return closeOnce({ kind: 'protocol', text: `${url} answered with ${type || 'no content type'}, not text/event-stream`, retry: false });
      }
      on.open();
      const parser = new SseParser((data, id) => {
        if (!done) on.message(data, id);
      });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          parser.push(value);
        }
      } catch (e) {
        return closeOnce({ kind: 'network', text: `the event stream broke: ${networkReason(e)}`, retry: true });
      }
      closeOnce({ kind: 'server', text: 'the server ended the event stream', retry: true });
    })();
    return {
      close: () => {
        done = true;
        abort.abort();
      },
    };
  };
}

function networkReason(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.cause?.message ?? err.message;
}
