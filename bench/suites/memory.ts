import { keyedEvents } from '../lib/events.ts';
import { runEngine } from './keyedCount.ts';

/**
 * Heap (with typed-array stores) per key of the count + sum state (memory backend), and of the
 * whole pipeline (state and view; a chained view reads the state's columns and keeps no rows of
 * its own), measured in Node with a forced GC around the run: the events exist before the first reading, the cluster (holding the state)
 * is alive at the second. Needs `--expose-gc`.
 */
export function bytesPerKey(keys: number, opts: { chain?: boolean } = {}): { bytesPerKey: number; viewBytesPerKey: number; pipelineBytesPerKey: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('memory figures need node --expose-gc');
  const heap = () => {
    gc();
    gc();
    // Typed-array backing stores live outside the JS heap: count them too.
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const events = keyedEvents(keys, keys);
  const h0 = heap();
  let run: ReturnType<typeof runEngine> | null = runEngine(events, { sink: false });
  const h1 = heap();
  if (run.cluster.task('totals')!.state.keys('group').length !== keys) throw new Error('state does not hold every key');
  run = null;
  const h2 = heap();
  let withView: ReturnType<typeof runEngine> | null = runEngine(events, { chain: opts.chain });
  const h3 = heap();
  const rows = withView.viewRows;
  withView = null;
  if (rows !== keys) throw new Error('view does not hold every key');
  return { bytesPerKey: (h1 - h0) / keys, viewBytesPerKey: (h3 - h2 - (h1 - h0)) / keys, pipelineBytesPerKey: (h3 - h2) / keys };
}
