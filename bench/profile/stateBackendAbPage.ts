// Two trees' stateBackend suite (the keyed count on memory and on IndexedDB, a checkpoint every interval) interleaved
// in one Chromium worker: `node --import tsx bench/profile/stateBackendAbPage.ts <before tree> [after tree] [events]
// [keys] [pairs] [intervalMs]`. A tree is a checkout (or an archive of src/ and bench/) with node_modules reachable;
// the after tree defaults to this one. Each round runs both backends of both trees, the trees' order alternating; a
// warm-up round first. Reported: events/s medians, each tree's IndexedDB ÷ memory paired per round (the bench's
// `stateBackend.ratioIndexeddbToMemory`), and after ÷ before paired per backend.
import { fileURLToPath } from 'node:url';
import { runAbInWorker } from '../lib/abWorkerPage.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [beforeTree, afterTree = root, events = '1000000', keys = '100000', pairs = '5', intervalMs = '1000'] = process.argv.slice(2);
const worker = `import * as before from './before.js';
import * as after from './after.js';
const sides = { before, after };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
onmessage = async ({ data: { events, keys, pairs, intervalMs } }) => {
  const evs = after.keyedEvents(events, keys);
  const got = {};
  for (const s of ['before', 'after']) for (const k of ['memory', 'indexeddb']) got[s + '.' + k] = [], got[s + '.' + k + '.cps'] = [];
  for (let r = 0; r <= pairs; r++) {
    for (const s of r % 2 ? ['after', 'before'] : ['before', 'after']) {
      for (const k of r % 2 ? ['indexeddb', 'memory'] : ['memory', 'indexeddb']) {
        const x = await sides[s].keyedCountWithBackend(evs, k, intervalMs);
        postMessage({ partial: { round: r, side: s, backend: k, eps: Math.round(x.eps), checkpoints: x.checkpoints } });
        if (r > 0) { got[s + '.' + k].push(x.eps); got[s + '.' + k + '.cps'].push(x.checkpoints); }
      }
    }
  }
  const out = {};
  for (const [n, xs] of Object.entries(got)) out[n] = Math.round(median(xs));
  for (const s of ['before', 'after']) out[s + '.ratioIndexeddbToMemory'] = +median(got[s + '.indexeddb'].map((x, i) => x / got[s + '.memory'][i])).toFixed(3);
  for (const k of ['memory', 'indexeddb']) out['paired.' + k] = +median(got['after.' + k].map((x, i) => x / got['before.' + k][i])).toFixed(3);
  postMessage({ done: out });
};
`;
const exports = (side: string) => (side === 'after' ? 'keyedCountWithBackend, keyedEvents' : 'keyedCountWithBackend');
const req = { events: Number(events), keys: Number(keys), pairs: Number(pairs), intervalMs: Number(intervalMs) };
console.log(JSON.stringify(await runAbInWorker({ before: beforeTree, after: afterTree }, 'bench/suites/stateBackend.ts', exports, worker, req), null, 1));
