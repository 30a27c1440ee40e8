import { afterEach, describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { inProcessCodeHost, installCodeHost } from '../codeHost.ts';
import type { OperatorCodeHost } from '../codeHost.ts';
import type { OperatorDefinition } from '../operator.ts';
import { keyedProcess } from './process.ts';
import type { ProcessParams } from '../../pipeline/kinds/process.ts';

const keyed = { inputs: { in: { keyedBy: ['user'] } } };

// Counts the crossings to the code host: one per invoke or invokeEach.
function countingHost(): { host: OperatorCodeHost; crossings: () => number } {
  let n = 0;
  const host: OperatorCodeHost = {
    load(site, js, form) {
      const code = inProcessCodeHost.load(site, js, form);
      return {
        shape: code.shape,
        callEach: (mode, rows) => (n++, code.callEach(mode, rows)),
        invoke: (r) => (n++, code.invoke(r)),
        invokeEach: (rs) => (n++, code.invokeEach(rs)),
      };
    },
  };
  return { host, crossings: () => n };
}

const counter = `({
  state: { n: { kind: 'value' }, items: { kind: 'list' }, per: { kind: 'map' } },
  processElement(row, ctx) {
    if (row.item === 'boom') throw new Error('no boom for ' + ctx.key);
    const n = (ctx.state.n.value() ?? 0) + 1;
    ctx.state.n.update(n);
    ctx.state.items.add(row.item);
    ctx.state.per.put(row.item, (ctx.state.per.get(row.item) ?? 0) + row.amount);
    if (row.item === 'half') ctx.state.items.add({ bad: 1n });
    ctx.emit({ user: ctx.key, n, items: ctx.state.items.get().join(','), sum: ctx.state.per.get(row.item) });
  },
})`;

function rowsOf(count: number, keys: number, seed: number) {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, (_, i) => {
    const r = next();
    return { user: `u${Math.floor(next() * keys)}`, item: r < 0.05 ? 'boom' : r < 0.08 ? 'half' : `i${i % 3}`, amount: i, ts: i };
  });
}

/** The same rows one call per record, and as one batch through a host that counts its crossings. */
function oneAndBatched(code: string, rows: Record<string, unknown>[], opts: { definition?: OperatorDefinition<ProcessParams> } = {}) {
  const one = new OperatorHarness('process', { code }, { ...keyed, ...opts });
  for (const row of rows) one.processElement(row);
  const counting = countingHost();
  installCodeHost(counting.host);
  const batched = new OperatorHarness('process', { code }, { ...keyed, ...opts });
  batched.processBatch(rows);
  installCodeHost(inProcessCodeHost);
  return { one, batched, crossings: counting.crossings() };
}

describe('process: a batch crosses to the code host once per 512 records', () => {
  afterEach(() => installCodeHost(inProcessCodeHost));

  it('gives the same output, dead letters and state as one call per record, for few and many keys', () => {
    for (const keys of [1, 3, 40, 1000]) {
      const rows = rowsOf(600, keys, keys);
      const { one, batched, crossings } = oneAndBatched(counter, rows);
      expect(batched.output()).toEqual(one.output());
      expect(batched.deadLetters).toEqual(one.deadLetters);
      expect(batched.deadLetters.length).toBeGreaterThan(0);
      expect(batched.snapshot().keyed).toEqual(one.snapshot().keyed);
      // The code host carries each key's state from call to call: 512 records per crossing, however few the keys.
      expect(crossings).toBe(Math.ceil(rows.length / 512));
    }
  });

  it('with a TTL, which the host applies at each read, a chunk still ends before a key comes again', () => {
    const ttl = counter.replace("n: { kind: 'value' }", "n: { kind: 'value', ttlMs: 60000 }");
    const rows = rowsOf(50, 1, 7);
    const { one, batched, crossings } = oneAndBatched(ttl, rows);
    expect(batched.output()).toEqual(one.output());
    expect(crossings).toBe(rows.length);
  });

  it('when applying an answer fails on the host, the later calls of the chunk run again from the state the host holds', () => {
    // The host refuses one record's answer whole (as a failing emit would); the code host had carried its writes on.
    const refusing: OperatorDefinition<ProcessParams> = {
      ...keyedProcess,
      create(args) {
        const op = keyedProcess.create(args);
        const refuse = (row: unknown) => {
          if ((row as { item?: string }).item === 'i1') throw new Error('the host refused i1');
        };
        return {
          ...op,
          processElement: (el, port) => (refuse(el.row), op.processElement(el, port)),
          keyedCalls: op.keyedCalls && { ...op.keyedCalls, apply: (el, answer) => (refuse(el.row), op.keyedCalls!.apply(el, answer)) },
        };
      },
    };
    const rows = rowsOf(300, 2, 3).map((r) => ({ ...r, item: r.item === 'boom' || r.item === 'half' ? 'i0' : r.item }));
    const { one, batched } = oneAndBatched(counter, rows, { definition: refusing });
    expect(batched.deadLetters.length).toBe(rows.filter((r) => r.item === 'i1').length);
    expect(batched.output()).toEqual(one.output());
    expect(batched.snapshot().keyed).toEqual(one.snapshot().keyed);
  });

  it('a record whose call throws changes nothing of its key, and the next record of that key sees the state before it', () => {
    const h = new OperatorHarness('process', { code: counter }, keyed);
    h.processBatch([
      { user: 'a', item: 'x', amount: 1 },
      { user: 'b', item: 'x', amount: 2 },
      { user: 'a', item: 'boom', amount: 3 },
      { user: 'a', item: 'y', amount: 4 },
    ]);
    expect(h.output().map((e) => e.row)).toEqual([
      { user: 'a', n: 1, items: 'x', sum: 1 },
      { user: 'b', n: 1, items: 'x', sum: 2 },
      { user: 'a', n: 2, items: 'x,y', sum: 4 },
    ]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual([
      "processing failed: no boom for a (in line 4 of the code: if (row.item === 'boom') throw new Error('no boom for ' + ctx.key);)",
    ]);
  });
});
