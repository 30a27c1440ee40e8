// A Node version of one Nexmark query for `node --cpu-prof`: `node --cpu-prof --import tsx bench/profile/nexmark.ts q17 [events] [runs]`.
import { nexmarkPlan, runQuery } from '../suites/nexmark.ts';

const [q = 'q17', events = '100000', runs = '3'] = process.argv.slice(2);
const plan = nexmarkPlan(q, Number(events));
for (let i = 0; i < Number(runs); i++) {
  const r = await runQuery(plan, Number(events));
  console.log(`${q}: ${Math.round(r.eps)} events/s, ${r.results} results`);
}
