// Nexmark queries as the bench runs them (checkpoint every 1 s), two builds interleaved in one Node process:
// `node --import tsx bench/profile/nexmarkAb.ts <before.mjs> <after.mjs> [queries] [events] [pairs]`. Each .mjs is an esbuild bundle of
// an entry `export { nexmarkPlan, runQuery } from '<tree>/bench/suites/nexmark.ts';`, so neither side pays tsx's wrappers.
// Per pair the order alternates; CPU time (user + system), since other tenants of a shared machine stretch wall time.
import { pathToFileURL } from 'node:url';

type Side = { nexmarkPlan: (q: string, events: number) => unknown; runQuery: (plan: unknown, events: number) => Promise<{ eps: number; results: number }> };
// `--changelog-may-differ`: the sides' changelogs may differ in length (mini-batch on one side only), so unequal result counts are printed, not refused.
const mayDiffer = process.argv.includes('--changelog-may-differ');
const [before, after, queries = 'q5,q7,q12,q17,q8', events = '200000', pairs = '5'] = process.argv.slice(2).filter((a) => a !== '--changelog-may-differ');
const sides: Record<'before' | 'after', Side> = { before: await import(pathToFileURL(before).href), after: await import(pathToFileURL(after).href) };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const q of queries.split(',')) {
  const n = Number(events);
  const plans = { before: sides.before.nexmarkPlan(q, n), after: sides.after.nexmarkPlan(q, n) };
  const eps: Record<'before' | 'after', number[]> = { before: [], after: [] };
  const wall: Record<'before' | 'after', number[]> = { before: [], after: [] };
  const results: Record<'before' | 'after', number> = { before: 0, after: 0 };
  for (let r = 0; r <= Number(pairs); r++) {
    for (const s of (r % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
      const c0 = process.cpuUsage();
      const run = await sides[s].runQuery(plans[s], n);
      const c = process.cpuUsage(c0);
      results[s] = run.results;
      // Round 0 warms up.
      if (r > 0) {
        eps[s].push(n / ((c.user + c.system) / 1e6));
        wall[s].push(run.eps);
      }
    }
  }
  if (results.before !== results.after && !mayDiffer) throw new Error(`${q}: ${results.before} results before, ${results.after} after`);
  const ratio = median(eps.after.map((a, i) => a / eps.before[i]));
  const wallRatio = median(wall.after.map((a, i) => a / wall.before[i]));
  console.log(JSON.stringify({ q, results: mayDiffer ? results : results.after, cpuEps: { before: Math.round(median(eps.before)), after: Math.round(median(eps.after)) }, paired: +ratio.toFixed(3), wallEps: { before: Math.round(median(wall.before)), after: Math.round(median(wall.after)) }, wallPaired: +wallRatio.toFixed(3) }));
}
