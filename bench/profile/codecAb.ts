// The threaded runtime's batch codec, old tree against new, interleaved in one thread, by CPU time: encode, structured
// clone with the transfer list (what a port does to the message), decode, per record.
// `node --import tsx bench/profile/codecAb.ts <old root> [batch] [pairs]`; the records are crossWorker's
// keyed events ({ key, amount }) and a keyed count's view changes ({ key, cnt, total }, -U/+U).
import { pathToFileURL } from 'node:url';
import type { Element } from '../../src/core/types.ts';
import { keyedEvents } from '../lib/events.ts';
import { median } from '../lib/stats.ts';

type Codec = typeof import('../../src/runtime/threaded/codec.ts');
const [oldRoot, batchText = '1024', pairsText = '21'] = process.argv.slice(2);
const codecs: Record<'before' | 'after', Codec> = {
  before: await import(pathToFileURL(`${oldRoot}/src/runtime/threaded/codec.ts`).href),
  after: await import('../../src/runtime/threaded/codec.ts'),
};
const batch = Number(batchText);
/** CPU time of the process (one busy thread), which a loaded machine's preemption does not inflate as it does wall time. */
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const TOTAL = 200_000;
const events: Element[] = keyedEvents(TOTAL, 50_000).map((e, i) => ({ kind: '+I', row: { key: e.key, amount: e.amount }, ts: 1000 + i }));
const changes: Element[] = events.map((e, i) => ({ kind: i % 2 ? '+U' : '-U', row: { key: e.row.key, cnt: i, total: (e.row.amount as number) * 3 }, ts: null }));

function trip(c: Codec, els: Element[]): number {
  let sum = 0;
  for (let at = 0; at < els.length; at += batch) {
    const transfer: Transferable[] = [];
    const wire = c.encodeBatch(els.slice(at, at + batch), 'columnar', transfer);
    const back = c.decodeBatch(structuredClone(wire, { transfer: transfer as never }));
    sum += back.length;
  }
  return sum;
}

for (const [label, els] of [['events', events], ['view changes', changes]] as const) {
  const ns: Record<string, number[]> = { before: [], after: [] };
  const ratios: number[] = [];
  for (let p = 0; p <= Number(pairsText); p++) {
    const got: Record<string, number> = {};
    for (const name of p % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const t0 = cpuMs();
      if (trip(codecs[name], els) !== els.length) throw new Error('lost records');
      got[name] = ((cpuMs() - t0) * 1e6) / els.length;
    }
    if (p === 0) continue;
    ns.before.push(got.before);
    ns.after.push(got.after);
    ratios.push(got.after / got.before);
  }
  console.log(`${label}, batches of ${batch}: before ${median(ns.before).toFixed(0)} ns/record, after ${median(ns.after).toFixed(0)} ns/record, paired after/before ${median(ratios).toFixed(3)} (${ratios.length} pairs)`);
}
