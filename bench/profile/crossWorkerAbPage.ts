// crossWorker.* (bench/page/main.ts) in headless Chromium, trees side by side in one page: each side its own pair of
// the page's source and sink workers (bundled from its tree), rounds interleaved (side order alternating, mode order
// rotating), as the suite runs them. Copy the old src/ and bench/ to a directory outside the repository, then
// `node --import tsx bench/profile/crossWorkerAbPage.ts <old root> [events] [keys] [rounds] [batch]`.
// Prints per side the medians of both ratios and of each mode's busy µs per record, and the paired after/before.
import { runAbPage } from '../lib/abWorkerPage.ts';

const [oldRoot, events = '1000000', keys = '100000', rounds = '5', batch = '1024'] = process.argv.slice(2);
const trees = { before: oldRoot, after: new URL('../..', import.meta.url).pathname };
const bundles = Object.fromEntries(
  Object.entries(trees).flatMap(([side, tree]) => [
    [`${side}-source`, { tree, module: 'bench/page/crossSource.worker.ts' }],
    [`${side}-sink`, { tree, module: 'bench/page/crossSink.worker.ts' }],
  ]),
);

// The page: the same ask/credit protocol as main.ts's crossWorker, once per side.
const page = `
const MODES = ['engine', 'single', 'passThrough', 'raw'];
async function pair(side, size) {
  const source = new Worker('./' + side + '-source.js', { type: 'module' });
  const sink = new Worker('./' + side + '-sink.js', { type: 'module' });
  const ch = new MessageChannel();
  sink.postMessage({ port: ch.port2 }, [ch.port2]);
  let next = null;
  source.onmessage = (e) => next && next(e.data);
  const ask = (m, transfer = []) => new Promise((resolve) => { next = resolve; source.postMessage(m, transfer); });
  await ask({ t: 'setup', port: ch.port1, ...size }, [ch.port1]);
  return (mode) => ask({ t: 'run', mode });
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
window.ab = async (req) => {
  const size = { events: req.events, keys: req.keys, batch: req.batch, window: 16 };
  const sides = { before: await pair('before', size), after: await pair('after', size) };
  const figs = { before: [], after: [] };
  for (let r = 0; r <= req.rounds; r++) {
    for (const name of r % 2 ? ['after', 'before'] : ['before', 'after']) {
      const eps = {}, busy = {};
      for (const mode of MODES.map((_, i) => MODES[(i + r) % MODES.length])) {
        const res = await sides[name](mode);
        if (res.events !== size.events) throw new Error(name + ' ' + mode + ': ' + res.events + ' events');
        eps[mode] = size.events / (res.ms / 1000);
        busy[mode] = (res.busyMs * 1000) / size.events;
      }
      const f = { toSingle: eps.engine / eps.single, toRaw: eps.passThrough / eps.raw, busyToSingle: busy.single / busy.engine, ...Object.fromEntries(MODES.map((m) => ['busyUs.' + m, busy[m]])), ...Object.fromEntries(MODES.map((m) => ['eps.' + m, eps[m]])) };
      console.log('round ' + r + ' ' + name + ' ' + JSON.stringify(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, +v.toPrecision(3)]))));
      if (r > 0) figs[name].push(f);
    }
  }
  const keys = Object.keys(figs.before[0]);
  const out = {};
  for (const k of keys) out[k] = { before: +median(figs.before.map((f) => f[k])).toPrecision(3), after: +median(figs.after.map((f) => f[k])).toPrecision(3), paired: +median(figs.after.map((f, i) => f[k] / figs.before[i][k])).toFixed(3) };
  return out;
};`;

const res = await runAbPage(bundles, {}, page, { events: Number(events), keys: Number(keys), rounds: Number(rounds), batch: Number(batch) });
console.log(JSON.stringify(res, null, 1));
process.exit(0);
