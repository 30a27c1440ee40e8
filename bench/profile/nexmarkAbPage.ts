// Two trees' Nexmark queries (checkpoint every 1 s, as the bench runs them) interleaved in one Chromium worker:
// `node --import tsx bench/profile/nexmarkAbPage.ts <before tree> [after tree] [queries] [events] [pairs]`.
// A tree is a checkout (or an archive of src/ and bench/) with node_modules reachable; the after tree defaults to
// this one. Each side is an esbuild bundle of its bench/suites/nexmark.ts; per pair the order alternates, wall time
// (a worker has no CPU clock), ratios paired per round.
import { fileURLToPath } from 'node:url';
import { runAbInWorker } from '../lib/abWorkerPage.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [beforeTree, afterTree = root, queries = 'q5,q7,q12,q17,q8', events = '200000', pairs = '5'] = process.argv.slice(2);
const worker = `import * as before from './before.js';
import * as after from './after.js';
const sides = { before, after };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
onmessage = async ({ data: { queries, events, pairs } }) => {
  const out = [];
  for (const q of queries) {
    const plans = { before: before.nexmarkPlan(q, events), after: after.nexmarkPlan(q, events) };
    const eps = { before: [], after: [] };
    const results = {};
    for (let r = 0; r <= pairs; r++) {
      for (const s of r % 2 ? ['after', 'before'] : ['before', 'after']) {
        const run = await sides[s].runQuery(plans[s], events);
        results[s] = run.results;
        if (r > 0) eps[s].push(run.eps);
      }
    }
    out.push({ q, results, before: Math.round(median(eps.before)), after: Math.round(median(eps.after)), paired: +median(eps.after.map((a, i) => a / eps.before[i])).toFixed(3), rounds: eps });
    postMessage({ partial: out[out.length - 1] });
  }
  postMessage({ done: out });
};
`;
const done = (await runAbInWorker({ before: beforeTree, after: afterTree }, 'bench/suites/nexmark.ts', () => 'nexmarkPlan, runQuery', worker, { queries: queries.split(','), events: Number(events), pairs: Number(pairs) })) as unknown[];
for (const r of done) console.log(JSON.stringify(r));
