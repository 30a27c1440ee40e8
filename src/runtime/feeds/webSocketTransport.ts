import type { FeedClose, FeedTransport } from '../../engine/feedConnection.ts';

/** The part of the WebSocket API a feed uses: the browser's global, or the `ws` package's in Node. */
export interface WebSocketLike {
  binaryType: string;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Close codes after which reconnecting cannot help: a normal end, a refusal of what we are. */
const FINAL_CODES = new Set([1000, 1003, 1007, 1008, 1009, 1010]);

/** Why a WebSocket closed, in words; 1006 is the browser's code for "no close frame" (refused, dropped). */
export function webSocketClose(url: string, code: number, reason: string, opened: boolean): FeedClose {
  if (code === 1006) return { kind: 'network', text: opened ? 'the connection dropped (1006, no close frame)' : `could not connect to ${url} (refused, unreachable or not a WebSocket server)`, retry: true };
  return { kind: 'server', text: `server closed the connection (${code}${reason ? ` ${reason}` : ''})`, retry: !FINAL_CODES.has(code), clean: code === 1000 };
}

const utf8 = new TextDecoder();

function text(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return utf8.decode(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return utf8.decode(data);
  if (Array.isArray(data)) return data.map(text).join('');
  return String(data);
}

/** A feed over WebSocket: each text (or UTF-8 binary) frame is one message. */
export function webSocketTransport(WS: WebSocketConstructor): FeedTransport {
  return (url, _lastEventId, on) => {
    let opened = false;
    let done = false;
    let ws: WebSocketLike;
    const closeOnce = (why: FeedClose) => {
      if (done) return;
      done = true;
      on.close(why);
    };
    try {
      ws = new WS(url);
    } catch (e) {
      queueMicrotask(() => closeOnce({ kind: 'protocol', text: `cannot open ${url}: ${(e as Error).message}`, retry: false }));
      return { close: () => undefined };
    }
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      opened = true;
      on.open();
    };
    ws.onmessage = (ev) => {
      if (!done) on.message(text(ev.data));
    };
    ws.onerror = () => undefined; // the close event that follows says what happened
    ws.onclose = (ev) => closeOnce(webSocketClose(url, ev.code, ev.reason, opened));
    return {
      close: () => {
        done = true;
        ws.onmessage = null;
        ws.onclose = null;
        ws.close(1000, 'stopped');
      },
    };
  };
}
