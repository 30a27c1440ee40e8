// Two trees' Nexmark queries (checkpoint every 1 s, as the bench runs them) interleaved in one Chromium worker:
// `node --import tsx bench/profile/nexmarkAbPage.ts <before tree> [after tree] [queries] [events] [pairs]`.
// A tree is a checkout (or an archive of src/ and bench/) with node_modules reachable; the after tree defaults to
// this one. Each side is an esbuild bundle of its bench/suites/nexmark.ts; per pair the order alternates, wall time
// (a worker has no CPU clock), ratios paired per round. A comma-separated before (`a,b,c`) runs every tree in each
// round, the order rotating, each side's ratio paired against the first (a bisection's steps in one run, one noise).
import { fileURLToPath } from 'node:url';
import { runAbInWorker } from '../lib/abWorkerPage.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [beforeTree, afterTree = root, queries = 'q5,q7,q12,q17,q8', events = '200000', pairs = '5'] = process.argv.slice(2);
const trees = [...beforeTree.split(','), afterTree];
const names = trees.length === 2 ? ['before', 'after'] : trees.map((_, i) => `s${i}`);
const worker = `${names.map((n) => `import * as ${n} from './${n}.js';`).join('\n')}
const names = ${JSON.stringify(names)};
const sides = { ${names.join(', ')} };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
onmessage = async ({ data: { queries, events, pairs } }) => {
  const out = [];
  for (const q of queries) {
    const plans = {}, eps = {}, checkpoints = {}, results = {};
    for (const n of names) { plans[n] = sides[n].nexmarkPlan(q, events); eps[n] = []; checkpoints[n] = []; }
    for (let r = 0; r <= pairs; r++) {
      // Two sides alternate; more rotate, so each runs first as often as the others.
      const order = names.length === 2 ? (r % 2 ? [names[1], names[0]] : names) : names.map((_, i) => names[(i + r) % names.length]);
      for (const s of order) {
        const run = await sides[s].runQuery(plans[s], events);
        results[s] = run.results;
        if (r > 0) {
          eps[s].push(run.eps);
          checkpoints[s].push(run.checkpoints);
        }
      }
    }
    const first = eps[names[0]];
    const row = { q, results };
    for (const n of names) row[n] = Math.round(median(eps[n]));
    if (names.length === 2) row.paired = +median(eps.after.map((a, i) => a / first[i])).toFixed(3);
    else row.pairedVsFirst = Object.fromEntries(names.slice(1).map((n) => [n, +median(eps[n].map((a, i) => a / first[i])).toFixed(3)]));
    // A paced run's checkpoints follow its wall time, and each walks the state: a slower round takes more.
    row.rounds = eps;
    row.checkpoints = checkpoints;
    out.push(row);
    postMessage({ partial: row });
  }
  postMessage({ done: out });
};
`;
const req = { queries: queries.split(','), events: Number(events), pairs: Number(pairs) };
const done = (await runAbInWorker(Object.fromEntries(names.map((n, i) => [n, trees[i]])), 'bench/suites/nexmark.ts', () => 'nexmarkPlan, runQuery', worker, req)) as unknown[];
for (const r of done) console.log(JSON.stringify(r));
