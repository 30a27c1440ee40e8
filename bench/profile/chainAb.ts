// Chained vs unchained view, interleaved in one Node process (same process, same moment):
// `node --expose-gc --import tsx bench/profile/chainAb.ts [events] [keys] [pairs]`.
// Per pair: the keyed count with the view chained behind the GROUP BY, then unchained (the order
// alternates), then the hand loop; CPU time (user + system), not wall time, which other tenants of
// a shared machine stretch at random. Then heap per key of the whole pipeline, alternating too.
import { keyedEvents } from '../lib/events.ts';
import { median } from '../lib/stats.ts';
import { bytesPerKey } from '../suites/memory.ts';
import { runEngine, runHandLoop } from '../suites/keyedCount.ts';

const [events = '1000000', keys = '100000', pairs = '7'] = process.argv.slice(2);
const ev = keyedEvents(Number(events), Number(keys));
const cpuMs = (fn: () => void): number => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

const sides = { chained: true, unchained: false } as const;
type Side = keyof typeof sides;
const ms: Record<Side | 'loop', number[]> = { chained: [], unchained: [], loop: [] };
for (let r = 0; r <= Number(pairs); r++) {
  const order: Side[] = r % 2 ? ['unchained', 'chained'] : ['chained', 'unchained'];
  for (const side of order) {
    const t = cpuMs(() => {
      const { viewRows } = runEngine(ev, { chain: sides[side] });
      if (viewRows !== Number(keys)) throw new Error(`${side}: the view holds ${viewRows} rows, not ${keys}`);
    });
    // Round 0 warms up.
    if (r > 0) ms[side].push(t);
  }
  const l = cpuMs(() => runHandLoop(ev));
  if (r > 0) ms.loop.push(l);
}

const usPerEvent = (side: Side) => +((median(ms[side]) * 1000) / ev.length).toFixed(3);
const ratioToLoop = (side: Side) => +median(ms[side].map((t, i) => ms.loop[i] / t)).toFixed(3);
const mem: Record<Side, number[]> = { chained: [], unchained: [] };
for (let r = 0; r < Number(pairs); r++) {
  for (const side of (r % 2 ? ['unchained', 'chained'] : ['chained', 'unchained']) as Side[]) mem[side].push(bytesPerKey(Number(keys), { chain: sides[side] }).pipelineBytesPerKey);
}
console.log(
  JSON.stringify({
    events: ev.length,
    keys: Number(keys),
    pairs: Number(pairs),
    cpuUsPerEvent: { chained: usPerEvent('chained'), unchained: usPerEvent('unchained'), loop: +((median(ms.loop) * 1000) / ev.length).toFixed(4) },
    pairedSpeedup: +median(ms.unchained.map((u, i) => u / ms.chained[i])).toFixed(3),
    ratioToLoop: { chained: ratioToLoop('chained'), unchained: ratioToLoop('unchained') },
    pipelineBytesPerKey: { chained: Math.round(median(mem.chained)), unchained: Math.round(median(mem.unchained)) },
  }),
);
