// The threaded runtime's packRows (snapshot cells and view rows to the job manager), old tree against new, interleaved
// in one thread, by CPU time: pack, structured clone with the transfer list, unpack, per row.
// `node --import tsx bench/profile/packRowsAb.ts <old root> [cells] [pairs]`; the rows are the keyed count's GROUP BY
// cells (bench/lib/snapshotCells.ts) and their result rows.
import { pathToFileURL } from 'node:url';
import { keyedCountCells } from '../lib/snapshotCells.ts';
import { median } from '../lib/stats.ts';

type Codec = typeof import('../../src/runtime/threaded/codec.ts');
const [oldRoot, cellsText = '50000', pairsText = '15'] = process.argv.slice(2);
const codecs: Record<'before' | 'after', Codec> = {
  before: await import(pathToFileURL(`${oldRoot}/src/runtime/threaded/codec.ts`).href),
  after: await import('../../src/runtime/threaded/codec.ts'),
};
const cells = keyedCountCells(Number(cellsText) * 3, Number(cellsText));
const rows = cells.map((c) => (c.value as { out: unknown }).out);
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

function stages(c: Codec, list: readonly unknown[]): { pack: number; trip: number } {
  let t0 = cpuMs();
  const transfer: Transferable[] = [];
  const packed = c.packRows(list, transfer);
  const pack = cpuMs() - t0;
  t0 = cpuMs();
  const back = c.unpackRows(structuredClone(packed, { transfer: transfer as never }));
  const trip = pack + cpuMs() - t0;
  if (back.length !== list.length) throw new Error('lost rows');
  return { pack: (pack * 1e6) / list.length, trip: (trip * 1e6) / list.length };
}

for (const [label, list] of [['cells', cells], ['view rows', rows]] as const) {
  const got = { before: [] as { pack: number; trip: number }[], after: [] as { pack: number; trip: number }[] };
  for (let p = 0; p <= Number(pairsText); p++) {
    for (const name of p % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const s = stages(codecs[name], list);
      if (p > 0) got[name].push(s);
    }
  }
  for (const k of ['pack', 'trip'] as const) {
    const ratio = median(got.after.map((a, i) => a[k] / got.before[i][k]));
    console.log(`${label} ${k}: before ${median(got.before.map((g) => g[k])).toFixed(0)} ns/row, after ${median(got.after.map((g) => g[k])).toFixed(0)} ns/row, paired after/before ${ratio.toFixed(3)} (${got.after.length} pairs)`);
  }
}
