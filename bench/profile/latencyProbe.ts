// Latency experiments without the whole bench: `node --import tsx bench/profile/latencyProbe.ts '{"ratePerSec":20000};{}' [runs]`
// runs the latency suite with QUICK's sizes overridden by each JSON variant (separated by ;), alternating, one run each.
import { openProbePage } from '../lib/probePage.ts';
import { QUICK } from '../sizes.ts';

const variants = (process.argv[2] ?? '{}').split(';').map((s) => JSON.parse(s) as Record<string, number>);
const runs = Number(process.argv[3] ?? 3);
const { page, close } = await openProbePage();
try {
  for (let r = 0; r < runs; r++) {
    for (const v of variants) {
      const size = { ...QUICK.latency, ...v };
      const figs = await page.evaluate(([s]) => window.weirBench.latency({ ...s, searchSteps: 0 }, { runs: 1, warmups: 0 }), [size] as const);
      const show = (k: string) => (typeof figs[k] === 'number' ? (figs[k] as number).toFixed(0) : figs[k]);
      console.log(JSON.stringify(v), ['previewP99Ms', 'committedP50Ms', 'committedP99Ms', 'checkpointP99Ms', 'achievedEventsPerSec', 'sustainedEventsPerSec', 'checkpointsPerRun'].map((k) => `${k} ${show(`latency.${k}`)}`).join(' '));
    }
  }
} finally {
  await close();
}
