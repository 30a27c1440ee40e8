// crossWorker.* (bench/page/main.ts) in Node worker threads, old tree against new, interleaved in one
// process: copy the old src/ and bench/ (with package.json) to a directory outside the repository with
// a node_modules symlink, then `node --import tsx bench/profile/crossWorkerAb.ts <old root> [events] [keys] [pairs] [batch]`.
// Each side runs the page's own source and sink workers; every pair runs both sides' four modes.
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { median } from '../lib/stats.ts';
import type { CrossMode, SourceReply, ToSource } from '../page/crossWorkerProtocol.ts';

const here = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const boot = new URL('../../src/runtime/node/tsWorkerBoot.mjs', import.meta.url);
const shim = new URL('./webWorkerShim.ts', import.meta.url).href;
const MODES: CrossMode[] = ['engine', 'single', 'passThrough', 'raw'];

interface Side {
  run(mode: CrossMode): Promise<Extract<SourceReply, { t: 'done' }>>;
  close(): void;
}

async function side(root: string, size: { events: number; keys: number; batch: number; window: number }): Promise<Side> {
  const start = (name: string) => new Worker(boot, { workerData: { entry: shim, file: pathToFileURL(`${root}/bench/page/${name}`).href } });
  const source = start('crossSource.worker.ts');
  const sink = start('crossSink.worker.ts');
  const ch = new MessageChannel();
  sink.postMessage({ port: ch.port2 }, [ch.port2 as never]);
  let next: ((m: SourceReply) => void) | null = null;
  source.on('message', (m: SourceReply) => next?.(m));
  const ask = (m: ToSource, transfer: unknown[] = []) =>
    new Promise<SourceReply>((resolve) => {
      next = resolve;
      source.postMessage(m, transfer as never);
    });
  await ask({ t: 'setup', port: ch.port1 as never, ...size }, [ch.port1]);
  return {
    run: async (mode) => (await ask({ t: 'run', mode })) as Extract<SourceReply, { t: 'done' }>,
    close: () => {
      void source.terminate();
      void sink.terminate();
    },
  };
}

const [oldRoot, events = '1000000', keys = '100000', pairs = '5', batch = '1024'] = process.argv.slice(2);
const size = { events: Number(events), keys: Number(keys), batch: Number(batch), window: 16 };
const sides = { before: await side(oldRoot, size), after: await side(here, size) };
const fig = { before: { toSingle: [] as number[], toRaw: [] as number[] }, after: { toSingle: [] as number[], toRaw: [] as number[] } };
for (let r = 0; r <= Number(pairs); r++) {
  for (const name of r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
    const got: Partial<Record<CrossMode, number>> = {};
    for (const mode of MODES.map((_, i) => MODES[(i + r) % MODES.length])) {
      const res = await sides[name].run(mode);
      if (res.events !== size.events) throw new Error(`${name} ${mode}: ${res.events} of ${size.events} events`);
      got[mode] = size.events / (res.ms / 1000);
    }
    const toSingle = got.engine! / got.single!;
    const toRaw = got.passThrough! / got.raw!;
    console.error(`pair ${r} ${name}: ratioToSingleWorker ${toSingle.toFixed(3)}, passThroughRatioToRaw ${toRaw.toFixed(3)}`, JSON.stringify(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, Math.round(v!)]))));
    if (r === 0) continue;
    fig[name].toSingle.push(toSingle);
    fig[name].toRaw.push(toRaw);
  }
}
const paired = (k: 'toSingle' | 'toRaw') => +median(fig.after[k].map((a, i) => a / fig.before[k][i])).toFixed(3);
console.log(
  JSON.stringify({
    ratioToSingleWorker: { before: +median(fig.before.toSingle).toFixed(3), after: +median(fig.after.toSingle).toFixed(3), pairedAfterOverBefore: paired('toSingle') },
    passThroughRatioToRaw: { before: +median(fig.before.toRaw).toFixed(3), after: +median(fig.after.toRaw).toFixed(3), pairedAfterOverBefore: paired('toRaw') },
  }),
);
sides.before.close();
sides.after.close();
process.exit(0);
