// Two trees' IndexedDB checkpoints interleaved in one Chromium worker, each against the raw write of the same entries:
// `node --import tsx bench/profile/checkpointAbPage.ts <before tree> [after tree] [keys] [pairs]`.
// A tree is a checkout (or an archive of src/ and bench/) with node_modules reachable; the after tree defaults to this
// one. Each side is an esbuild bundle of its bench/suites/checkpoint.ts `checkpointOnce`; the raw floor is this tree's
// `rawWriteRead` for both, run next to each side's checkpoint. Per pair the order alternates; a warm-up pair first.
import { fileURLToPath } from 'node:url';
import { runAbInWorker } from '../lib/abWorkerPage.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [beforeTree, afterTree = root, keys = '1000000', pairs = '5'] = process.argv.slice(2);
const worker = `import * as before from './before.js';
import * as after from './after.js';
const sides = { before, after };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
onmessage = async ({ data: { keys, pairs } }) => {
  const got = { before: [], after: [] };
  for (let r = 0; r <= pairs; r++) {
    for (const s of r % 2 ? ['after', 'before'] : ['before', 'after']) {
      const raw = await after.rawWriteRead(keys);
      const c = await sides[s].checkpointOnce(keys);
      const row = { ...c, rawWriteMs: raw.writeMs, rawReadMs: raw.readMs, fullToRaw: c.fullMs / raw.writeMs, restoreToRawRead: c.restoreMs / raw.readMs };
      postMessage({ partial: { round: r, side: s, ...row } });
      if (r > 0) got[s].push(row);
    }
  }
  const out = {};
  for (const f of ['fullMs', 'rawWriteMs', 'fullToRaw', 'fullSyncMs', 'incrementalMs', 'restoreMs', 'restoreToRawRead']) {
    out[f] = { before: +median(got.before.map((x) => x[f])).toFixed(3), after: +median(got.after.map((x) => x[f])).toFixed(3), paired: +median(got.after.map((a, i) => a[f] / got.before[i][f])).toFixed(3) };
  }
  postMessage({ done: out });
};
`;
const exports = (side: string) => (side === 'after' ? 'checkpointOnce, rawWriteRead' : 'checkpointOnce');
console.log(JSON.stringify(await runAbInWorker({ before: beforeTree, after: afterTree }, 'bench/suites/checkpoint.ts', exports, worker, { keys: Number(keys), pairs: Number(pairs) }), null, 1));
