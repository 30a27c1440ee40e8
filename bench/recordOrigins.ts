// What records' source lines (Element.at, src/core/origin.ts) cost on the hot path, measured in
// one process, sides interleaved, median of 11 rounds after a warm-up, paired ratios, in CPU time:
// - a source's poll (JSON parse, schema check) stamping lines or not (pipelines with / without code);
// - a columnar batch of 256 crossing a worker boundary with or without the line column;
// - a one-to-one operator's new element: derived() against the plain literal it replaced.
// node --import tsx bench/recordOrigins.ts [records]
import { SourceTask } from '../src/engine/sourceTask.ts';
import { jsonLinesReader } from '../src/core/source.ts';
import { derived, packOrigin } from '../src/core/origin.ts';
import { decodeBatch, encodeBatch } from '../src/runtime/threaded/codec.ts';
import type { Element } from '../src/core/types.ts';
import { interleave, pairedRatio } from './lib/stats.ts';

const n = Number(process.argv[2] ?? 300_000);
const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ customer: `c${i % 1000}`, amount: i % 7, note: 'ok' }));
const schema = { customer: 'string', amount: 'number' };
const plan = { runs: 11, warmups: 1 };
/** CPU time (user + system), not wall-clock: the machine is shared, and a descheduled thread costs no CPU. */
const nsPerRecord = (run: () => number): (() => number) => () => {
  const before = process.cpuUsage();
  if (run() < 0) throw new Error('unreachable');
  const d = process.cpuUsage(before);
  return ((d.user + d.system) * 1e3) / n;
};

const poll = (slot: number | undefined) => () => {
  const t = new SourceTask('orders', jsonLinesReader(lines), { schema }, slot);
  let got = 0;
  while (!t.done()) got += t.poll(256).elements.length;
  return got;
};

const source = (slot: number | undefined): Element[] => new SourceTask('orders', jsonLinesReader(lines), { schema }, slot).poll(n).elements;
const bare = source(undefined);
const stamped = source(0);
const cross = (els: Element[]) => () => {
  let got = 0;
  for (let i = 0; i < n; i += 256) {
    const transfer: Transferable[] = [];
    got += decodeBatch(structuredClone(encodeBatch(els.slice(i, i + 256), 'columnar', transfer), { transfer: transfer as never })).length;
  }
  return got;
};

const literal = () => {
  let s = 0;
  for (const el of bare) s += ({ kind: el.kind, row: el.row, ts: el.ts } as Element).row === el.row ? 1 : 0;
  return s;
};
const viaDerived = (els: Element[]) => () => {
  let s = 0;
  for (const el of els) s += derived(el, el.row).row === el.row ? 1 : 0;
  return s;
};

const report = async (what: string, sides: Record<string, () => number>) => {
  const r = await interleave(sides, plan);
  const [a, b] = Object.keys(sides);
  console.log(`${what.padEnd(34)} ${a} ${r.median[a].toFixed(1)} ns/record, ${b} ${r.median[b].toFixed(1)} ns/record, ${b}/${a} ${pairedRatio(r, b, a).toFixed(3)}`);
};

console.log(`${n} records; packOrigin(0, 3) = ${packOrigin(0, 3)}`);
await report('source poll', { bare: nsPerRecord(poll(undefined)), lines: nsPerRecord(poll(0)) });
await report('columnar batch across a port', { bare: nsPerRecord(cross(bare)), lines: nsPerRecord(cross(stamped)) });
await report('one-to-one element, no line', { literal: nsPerRecord(literal), derived: nsPerRecord(viaDerived(bare)) });
await report('one-to-one element, with line', { literal: nsPerRecord(literal), derived: nsPerRecord(viaDerived(stamped)) });
