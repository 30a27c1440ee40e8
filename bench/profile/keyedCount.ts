// A Node version of the keyed-count run for `node --cpu-prof`:
// `node --cpu-prof --cpu-prof-dir=bench/profile/out --import tsx bench/profile/keyedCount.ts [events] [keys] [runs]`.
import { keyedEvents } from '../lib/events.ts';
import { runEngine, runHandLoop } from '../suites/keyedCount.ts';

const [events = 500_000, keys = 100_000, runs = 5] = process.argv.slice(2).map(Number);
const ev = keyedEvents(events, keys);
for (let i = 0; i < runs; i++) {
  const e = runEngine(ev);
  const l = runHandLoop(ev);
  console.log(`engine ${Math.round(e.eps)} ev/s, hand loop ${Math.round(l.eps)} ev/s, ratio ${(e.eps / l.eps).toFixed(3)}`);
}
