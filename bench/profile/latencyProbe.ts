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
      const figs = await page.evaluate(([s]) => window.weirBench.latency(s, { runs: 1, warmups: 0 }), [size] as const);
      console.log(JSON.stringify(v), `p50 ${figs['latency.p50Ms']?.toFixed(0)} p99 ${figs['latency.p99Ms']?.toFixed(0)} achieved ${Math.round(figs['latency.achievedEventsPerSec'] ?? 0)} checkpoints ${figs['latency.checkpointsPerRun']}`);
    }
  }
} finally {
  await close();
}
