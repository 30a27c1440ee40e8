import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

const keyed = { inputs: { in: { keyedBy: ['user'] } } };
const processOf = (code: string) => new OperatorHarness('process', { code }, keyed);

const everyKind = `({
  state: {
    count: { kind: 'value' },
    seen: { kind: 'list' },
    byItem: { kind: 'map' },
    total: { kind: 'reducing', reduce: (a, b) => a + b },
    avg: { kind: 'aggregating', create: () => [0, 0], add: (acc, v) => [acc[0] + v, acc[1] + 1], get: (acc) => acc[0] / acc[1] },
  },
  processElement(row, ctx) {
    const n = (ctx.state.count.value() ?? 0) + 1;
    ctx.state.count.update(n);
    ctx.state.seen.add(row.item);
    ctx.state.byItem.put(row.item, (ctx.state.byItem.get(row.item) ?? 0) + 1);
    ctx.state.total.add(row.amount);
    ctx.state.avg.add(row.amount);
    ctx.emit({
      key: ctx.key, n, seen: ctx.state.seen.get().join(','), items: ctx.state.byItem.size(), sameItem: ctx.state.byItem.get(row.item),
      total: ctx.state.total.get(), avg: ctx.state.avg.get(), at: ctx.timestamp, kind: ctx.kind, wm: String(ctx.currentWatermark()), pt: ctx.currentProcessingTime(),
    });
  },
})`;

describe('process: keyed state', () => {
  it('binds value, list, map, reducing and aggregating state to the current key', () => {
    const h = processOf(everyKind);
    h.setProcessingTime(7);
    h.processElement({ user: 'a', item: 'x', amount: 2 }, { ts: 10 });
    h.processElement({ user: 'b', item: 'x', amount: 10 }, { ts: 11 });
    h.processElement({ user: 'a', item: 'y', amount: 4 }, { ts: 12, kind: '+U' });
    h.processElement({ user: 'a', item: 'x', amount: 6 }, { ts: 13 });
    expect(h.output().map((e) => [e.kind, e.ts, e.row])).toEqual([
      ['+I', 10, { key: 'a', n: 1, seen: 'x', items: 1, sameItem: 1, total: 2, avg: 2, at: 10, kind: '+I', wm: '-Infinity', pt: 7 }],
      ['+I', 11, { key: 'b', n: 1, seen: 'x', items: 1, sameItem: 1, total: 10, avg: 10, at: 11, kind: '+I', wm: '-Infinity', pt: 7 }],
      ['+I', 12, { key: 'a', n: 2, seen: 'x,y', items: 2, sameItem: 1, total: 6, avg: 3, at: 12, kind: '+U', wm: '-Infinity', pt: 7 }],
      ['+I', 13, { key: 'a', n: 3, seen: 'x,y,x', items: 2, sameItem: 2, total: 12, avg: 4, at: 13, kind: '+I', wm: '-Infinity', pt: 7 }],
    ]);
  });

  it('expires state after ttlMs of processing time, counted from the last write', () => {
    const h = processOf(`({
      state: { count: { kind: 'value', ttlMs: 1000 }, items: { kind: 'list', ttlMs: 1000 } },
      processElement(row, ctx) {
        const n = (ctx.state.count.value() ?? 0) + 1;
        ctx.state.count.update(n);
        ctx.state.items.add(row.item);
        ctx.emit({ n, items: ctx.state.items.get().join(',') });
      },
    })`);
    h.setProcessingTime(0).processElement({ user: 'a', item: 'p' });
    h.setProcessingTime(600).processElement({ user: 'a', item: 'q' });
    h.setProcessingTime(1200).processElement({ user: 'a', item: 'r' });
    h.setProcessingTime(2300).processElement({ user: 'a', item: 's' });
    expect(h.output().map((e) => e.row)).toEqual([
      { n: 1, items: 'p' },
      { n: 2, items: 'p,q' },
      { n: 3, items: 'q,r' },
      { n: 1, items: 's' },
    ]);
    expect(h.task.stateMetrics().ttlCleanups).toBeGreaterThan(0);
  });

  it('can measure TTL in event time', () => {
    const h = processOf(`({
      state: { last: { kind: 'value', ttlMs: 100, ttlTime: 'event' } },
      processElement(row, ctx) { ctx.emit({ before: ctx.state.last.value() ?? null }); ctx.state.last.update(row.v); },
    })`);
    h.processElement({ user: 'a', v: 1 }, { ts: 1000 }).processElement({ user: 'a', v: 2 }, { ts: 1099 }).processElement({ user: 'a', v: 3 }, { ts: 1198 });
    expect(h.output().map((e) => e.row.before)).toEqual([null, 1, 2]);
    h.processElement({ user: 'a', v: 4 }, { ts: 1300 });
    expect(h.output().at(-1)?.row.before).toBe(null);
  });
});

describe('process: validation and bad records', () => {
  it('refuses code without processElement, with a clear message', () => {
    expect(() => processOf('({ onTimer() {} })')).toThrow(/no processElement\(row, ctx\) method/);
    expect(() => processOf('(row, ctx) => ctx.emit(row)')).toThrow(/must be an object literal with processElement/);
  });

  it('refuses state declarations it cannot bind', () => {
    expect(() => processOf("({ state: { x: { kind: 'set' } }, processElement() {} })")).toThrow(/state "x" has kind "set"; use one of 'value', 'list'/);
    expect(() => processOf("({ state: { x: { kind: 'reducing' } }, processElement() {} })")).toThrow(/reducing state needs reduce/);
    expect(() => processOf("({ state: { x: { kind: 'aggregating', create: () => 0 } }, processElement() {} })")).toThrow(/needs create\(\), add/);
    expect(() => processOf("({ state: { x: { kind: 'value', ttlMs: -5 } }, processElement() {} })")).toThrow(/ttlMs must be a positive/);
  });

  it('dead-letters a throw, a non-row emit and a timer at a time that is not a number', () => {
    const h = processOf(`({
      processElement(row, ctx) {
        if (row.boom) throw new Error('boom');
        if (row.timer) ctx.timerService.registerEventTimeTimer(undefined);
        ctx.emit(row.v);
      },
    })`);
    h.processElement({ user: 'a', boom: true }).processElement({ user: 'a', timer: true }).processElement({ user: 'a', v: 5 }).processElement({ user: 'a', v: { ok: 1 } });
    expect(h.deadLetters.map((d) => d.reason)).toEqual([
      "processing failed: boom (in line 3 of the code: if (row.boom) throw new Error('boom');)",
      'processing failed: registerEventTimeTimer needs a finite timestamp in ms, got undefined (in line 4 of the code: if (row.timer) ctx.timerService.registerEventTimeTimer(undefined);)',
      'process emitted number, not a row object',
    ]);
    expect(h.lines()).toEqual(['+I {"ok":1}']);
  });

  it('accepts TypeScript', () => {
    const h = processOf('({ processElement(row: { user: string }, ctx: any): void { ctx.emit({ who: row.user as string }); } })');
    h.processElement({ user: 'a' });
    expect(h.lines()).toEqual(['+I {"who":"a"}']);
  });
});
