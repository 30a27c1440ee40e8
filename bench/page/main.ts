// The bench page: playwright-core calls window.weirBench.* and gets figures back. Every suite
// runs in a fresh dedicated worker; the cross-worker figures use a pair of them.
import type { SuiteRequest } from './bench.worker.ts';
import { CROSS_MODES, type CrossMode, type SourceReply, type ToSource } from './crossWorkerProtocol.ts';
import { median, type RunPlan } from '../lib/stats.ts';
import { latencySuite } from './latency.ts';
import { uiHeadless } from './uiHeadless.ts';

function runSuite(req: SuiteRequest): Promise<Record<string, number>> {
  const w = new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<{ ok: boolean; figures?: Record<string, number>; error?: string }>) => {
      w.terminate();
      if (e.data.ok) resolve(e.data.figures!);
      else reject(new Error(e.data.error));
    };
    w.onerror = (e) => {
      w.terminate();
      reject(new Error(`worker error in ${req.suite}: ${e.message}`));
    };
    w.postMessage(req);
  });
}

/**
 * crossWorker.*: two pairs of figures from the same two workers over one MessageChannel, all four
 * modes interleaved (the order rotates every round): the keyed count across the boundary ÷ the
 * same operators in one worker, and source → map → sink across the boundary ÷ raw typed arrays.
 */
async function crossWorker(size: { events: number; keys: number; batch: number; window: number }, plan: RunPlan): Promise<Record<string, number>> {
  const source = new Worker(new URL('./crossSource.worker.ts', import.meta.url), { type: 'module' });
  const sink = new Worker(new URL('./crossSink.worker.ts', import.meta.url), { type: 'module' });
  const ch = new MessageChannel();
  sink.postMessage({ port: ch.port2 }, [ch.port2]);
  let next: ((m: SourceReply) => void) | null = null;
  source.onmessage = (e: MessageEvent<SourceReply>) => next?.(e.data);
  const ask = (m: ToSource, transfer: Transferable[] = []) =>
    new Promise<SourceReply>((resolve) => {
      next = resolve;
      source.postMessage(m, transfer);
    });
  await ask({ t: 'setup', port: ch.port1, ...size }, [ch.port1]);
  const eps = Object.fromEntries(CROSS_MODES.map((m) => [m, [] as number[]])) as Record<CrossMode, number[]>;
  const toSingle: number[] = [];
  const busyToSingle: number[] = [];
  const toRaw: number[] = [];
  try {
    for (let round = 0; round < plan.warmups + plan.runs; round++) {
      const order = CROSS_MODES.map((_, i) => CROSS_MODES[(i + round) % CROSS_MODES.length]);
      const got: Partial<Record<CrossMode, number>> = {};
      const busy: Partial<Record<CrossMode, number>> = {};
      for (const mode of order) {
        const r = (await ask({ t: 'run', mode })) as Extract<SourceReply, { t: 'done' }>;
        if (r.events !== size.events) throw new Error(`crossWorker ${mode}: the sink saw ${r.events} of ${size.events} events`);
        const expectRows = mode === 'engine' || mode === 'single' ? Math.min(size.keys, size.events) : size.events;
        if (r.viewRows !== expectRows) throw new Error(`crossWorker ${mode}: ${r.viewRows} rows reached the sink, expected ${expectRows}`);
        got[mode] = size.events / (r.ms / 1000);
        busy[mode] = r.busyMs;
      }
      if (round < plan.warmups) continue;
      for (const m of CROSS_MODES) eps[m].push(got[m]!);
      toSingle.push(got.engine! / got.single!);
      busyToSingle.push(busy.single! / busy.engine!);
      toRaw.push(got.passThrough! / got.raw!);
    }
  } finally {
    source.terminate();
    sink.terminate();
  }
  return {
    'crossWorker.engineEventsPerSec': median(eps.engine),
    'crossWorker.singleWorkerEventsPerSec': median(eps.single),
    'crossWorker.ratioToSingleWorker': median(toSingle),
    'crossWorker.busyRatioToSingleWorker': median(busyToSingle),
    'crossWorker.passThroughEventsPerSec': median(eps.passThrough),
    'crossWorker.rawTransferEventsPerSec': median(eps.raw),
    'crossWorker.passThroughRatioToRaw': median(toRaw),
  };
}

declare global {
  interface Window {
    weirBench: {
      runSuite: typeof runSuite;
      crossWorker: typeof crossWorker;
      latency: typeof latencySuite;
      uiHeadless: typeof uiHeadless;
      isolated: () => boolean;
    };
  }
}

window.weirBench = { runSuite, crossWorker, latency: latencySuite, uiHeadless, isolated: () => crossOriginIsolated };
document.body.dataset.ready = 'true';
