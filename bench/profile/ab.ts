// Before/after of an engine change, interleaved in one Node process:
// copy src/ with the old files to a directory outside the repo (node_modules reachable from it, e.g. a symlink), then `node --import tsx bench/profile/ab.ts <copied src or old bundle.mjs> [events] [keys] [rounds]`.
import { pathToFileURL } from 'node:url';
import { keyedEvents, readyReader } from '../lib/events.ts';
import { keyedCountDoc } from '../lib/keyedCountDoc.ts';
import { median } from '../lib/stats.ts';
import { runHandLoop } from '../suites/keyedCount.ts';
import { NEXMARK_QUERIES } from '../nexmark/index.ts';

function nexmarkDoc(q: string, events: number): unknown {
  const doc = structuredClone(NEXMARK_QUERIES[q]) as { nodes: { id: string; params: Record<string, unknown> }[] };
  for (const n of doc.nodes) if (n.id === 'events') n.params.count = events;
  return doc;
}

/** Runs a plan to its end: the one runtime in process, or an older build's single-threaded executor. */
type Engine = { run: (plan: unknown, opts: unknown) => void; planOrThrow: (d: unknown) => unknown };

/**
 * `srcDir` is a copy of src/, or an esbuild bundle (.mjs) exporting runInProcess (or, from an
 * older build, Executor) and planOrThrow: tsx wraps functions in `__name` calls that a bundle
 * does not have, e.g. `npx esbuild entry.ts --bundle --platform=node --format=esm --outfile=/tmp/old.mjs`
 * with an entry of `export { runInProcess } from '<src>/runtime/runInProcess.ts'; export { planOrThrow } from '<src>/testing/runPipeline.ts';`.
 */
async function load(srcDir: string): Promise<Engine> {
  const rp = srcDir.endsWith('.mjs') ? await import(pathToFileURL(srcDir).href) : await import(pathToFileURL(`${srcDir}/testing/runPipeline.ts`).href);
  let mod = rp;
  if (!srcDir.endsWith('.mjs')) {
    mod = await import(pathToFileURL(`${srcDir}/runtime/runInProcess.ts`).href).catch(() => import(pathToFileURL(`${srcDir}/engine/executor.ts`).href));
  }
  if (mod.runInProcess) return { run: (plan, opts) => void mod.runInProcess(plan, opts), planOrThrow: rp.planOrThrow };
  return { run: (plan, opts) => new mod.Executor(plan, opts).run(), planOrThrow: rp.planOrThrow };
}

// The fourth argument `nexmark:qN` runs that Nexmark query (generator included) instead of the keyed count.
const [dir, events = '300000', keys = '100000', rounds = '7', what = 'keyedCount'] = process.argv.slice(2);
const ev = keyedEvents(what === 'keyedCount' ? Number(events) : 0, Number(keys));
const doc = what.startsWith('nexmark:') ? nexmarkDoc(what.slice(8), Number(events)) : keyedCountDoc();
// AB_AFTER names the new side's bundle; by default it is this repository's src/.
const sides = { before: await load(dir), after: await load(process.env.AB_AFTER ?? new URL('../../src', import.meta.url).pathname) };
const plans = { before: sides.before.planOrThrow(doc), after: sides.after.planOrThrow(doc) };
const count = what === 'keyedCount' ? ev.length : Number(events);
const eps: Record<string, number[]> = { before: [], after: [], loop: [] };
for (let r = 0; r < Number(rounds) + 1; r++) {
  for (const side of (r % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
    // CPU time, not wall time: on a shared VM other tenants' load stretches wall time at random.
    const c0 = process.cpuUsage();
    sides[side].run(plans[side], { keepChangelog: false, readers: what === 'keyedCount' ? { events: readyReader(ev) } : {} });
    const c = process.cpuUsage(c0);
    if (r > 0) eps[side].push(count / ((c.user + c.system) / 1e6));
  }
  const l = runHandLoop(ev).eps;
  if (r > 0) eps.loop.push(l);
}
const m = (k: string) => Math.round(median(eps[k]));
console.log(JSON.stringify({ before: m('before'), after: m('after'), loop: m('loop'), speedup: +(median(eps.after.map((a, i) => a / eps.before[i]))).toFixed(3) }));
