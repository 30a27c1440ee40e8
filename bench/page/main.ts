// The bench page: playwright-core calls window.weirBench.* and gets figures back. Every suite
// runs in a fresh dedicated worker; the cross-worker figures use a pair of them.
import type { SuiteRequest } from './bench.worker.ts';
import type { CrossMode, SourceReply, ToSource } from './crossWorkerProtocol.ts';
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

/** crossWorker.*: source and aggregate in two workers over one MessageChannel, engine and raw interleaved. */
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
  const eps: Record<CrossMode, number[]> = { engine: [], raw: [] };
  const ratios: number[] = [];
  for (let round = 0; round < plan.warmups + plan.runs; round++) {
    const order: CrossMode[] = round % 2 ? ['raw', 'engine'] : ['engine', 'raw'];
    const got: Partial<Record<CrossMode, number>> = {};
    for (const mode of order) {
      const r = (await ask({ t: 'run', mode })) as Extract<SourceReply, { t: 'done' }>;
      if (r.events !== size.events) throw new Error(`${mode}: the sink saw ${r.events} of ${size.events} events`);
      got[mode] = size.events / (r.ms / 1000);
    }
    if (round < plan.warmups) continue;
    eps.engine.push(got.engine!);
    eps.raw.push(got.raw!);
    ratios.push(got.engine! / got.raw!);
  }
  source.terminate();
  sink.terminate();
  return {
    'crossWorker.engineEventsPerSec': median(eps.engine),
    'crossWorker.rawTransferEventsPerSec': median(eps.raw),
    'crossWorker.ratioToRaw': median(ratios),
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
