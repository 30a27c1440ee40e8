// crossWorker's stages one by one (bench/lib/crossStages.ts) in one headless-Chromium worker, by wall time, trees
// side by side and interleaved: `node --import tsx bench/profile/crossStagesPage.ts <old root> [events] [rounds]`
// (the old tree needs a copy of bench/lib/crossStages.ts). Prints each side's medians and the paired after/before.
import { runAbInWorker } from '../lib/abWorkerPage.ts';

const [oldRoot, events = '500000', rounds = '7'] = process.argv.slice(2);
const worker = `import { crossStages as before } from './before.js';
import { crossStages as after } from './after.js';
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
self.onmessage = (e) => {
  const { events, rounds } = e.data;
  const sides = { before: before(events, 1024, () => performance.now()), after: after(events, 1024, () => performance.now()) };
  const got = { before: [], after: [] };
  for (let r = 0; r <= rounds; r++) for (const name of r % 2 ? ['after', 'before'] : ['before', 'after']) {
    const f = sides[name]();
    self.postMessage({ partial: { round: r, name, ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Math.round(v)])) } });
    if (r > 0) got[name].push(f);
  }
  const keys = Object.keys(got.before[0]);
  const out = {};
  for (const k of keys) out[k] = { before: Math.round(median(got.before.map((f) => f[k]))), after: Math.round(median(got.after.map((f) => f[k]))), paired: +median(got.after.map((f, i) => f[k] / got.before[i][k])).toFixed(3) };
  self.postMessage({ done: out });
};`;
const trees = { before: oldRoot, after: new URL('../..', import.meta.url).pathname };
console.log(JSON.stringify(await runAbInWorker(trees, 'bench/lib/crossStages.ts', () => "crossStages", worker, { events: Number(events), rounds: Number(rounds) }), null, 1));
process.exit(0);
