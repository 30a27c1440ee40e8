// One bench-page suite without the whole bench: `node --import tsx bench/profile/suiteProbe.ts checkpoint '{"keys":100000}' [rounds]`.
import { openProbePage } from '../lib/probePage.ts';

const [suite = 'checkpoint', argsText = '{}', roundsText = '3'] = process.argv.slice(2);
const { page, close } = await openProbePage();
try {
  const figs = await page.evaluate((req) => window.weirBench.runSuite(req), { suite, plan: { runs: Number(roundsText), warmups: 1 }, args: JSON.parse(argsText) });
  for (const [k, v] of Object.entries(figs)) console.log(`${k} ${typeof v === 'number' ? v.toFixed(3) : v}`);
} finally {
  await close();
}
