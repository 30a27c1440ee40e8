import { describe, expect, it } from 'vitest';
import { scenario, scenarios } from './index.ts';
import type { Scenario, ScenarioContext } from './index.ts';
import { scenarioReader } from './reader.ts';
import type { Row } from '../core/types.ts';

const ctxOf = (over: Partial<ScenarioContext> = {}): ScenarioContext => ({
  seed: 7,
  count: 400,
  keys: 10,
  startTime: 1_700_000_000_000,
  intervalMs: 100,
  disorderMs: 0,
  ...over,
});

function readAll(s: Scenario, ctx: ScenarioContext, batch = 7): Row[] {
  const r = scenarioReader(s, ctx);
  const out: Row[] = [];
  while (!r.done()) for (const x of r.read(batch)) out.push(x.value as Row);
  return out;
}

const typeOk = (v: unknown, t: string): boolean =>
  v === null || (t === 'string' ? typeof v === 'string' : t === 'integer' || t === 'timestamp' ? Number.isInteger(v) : t === 'number' ? typeof v === 'number' : true);

// The datagen scenario's columns come from its table, not from fixed fields: datagen.test.ts.
describe.each(scenarios.filter((s) => s.name !== 'datagen').map((s) => [s.name, s] as const))('scenario %s', (_name, s) => {
  it('gives the same records for the same seed and other records for another seed', () => {
    const a = readAll(s, ctxOf());
    expect(a.length).toBeGreaterThan(0);
    expect(readAll(s, ctxOf(), 50)).toEqual(a);
    expect(readAll(s, ctxOf({ seed: 8 }))).not.toEqual(a);
  });

  it('replays exactly from any offset, forwards and backwards', () => {
    const ctx = ctxOf({ disorderMs: 3000 });
    const full = readAll(s, ctx);
    const r = scenarioReader(s, ctx);
    const seen: Row[] = [];
    const marks: { offset: number; read: number }[] = [];
    while (!r.done()) {
      marks.push({ offset: r.offset(), read: seen.length });
      for (const x of r.read(13)) seen.push(x.value as Row);
    }
    expect(seen).toEqual(full);
    for (const m of [marks[0], marks[1], marks[Math.floor(marks.length / 2)], marks[marks.length - 1]]) {
      const fresh = scenarioReader(s, ctx);
      fresh.seek(m.offset);
      const rest: Row[] = [];
      while (!fresh.done()) for (const x of fresh.read(100)) rest.push(x.value as Row);
      expect(rest).toEqual(full.slice(m.read));
      r.seek(m.offset); // backwards on a used reader
      expect(r.read(5).map((x) => x.value)).toEqual(full.slice(m.read, m.read + 5));
    }
  });

  it('emits rows of the declared schema', () => {
    for (const row of readAll(s, ctxOf({ count: 100 }))) {
      expect(Object.keys(row).sort()).toEqual(Object.keys(s.fields).sort());
      for (const [f, t] of Object.entries(s.fields)) expect(typeOk(row[f], t), `${f}=${JSON.stringify(row[f])} as ${t}`).toBe(true);
      expect(typeof row.ts).toBe('number');
    }
  });

  it('keeps event time out of order by at most disorderMs', () => {
    for (const disorderMs of [0, 1500]) {
      let max = -Infinity;
      let worst = 0;
      for (const row of readAll(s, ctxOf({ disorderMs, count: 600 }))) {
        worst = Math.max(worst, max - (row.ts as number));
        max = Math.max(max, row.ts as number);
      }
      expect(worst).toBeLessThanOrEqual(disorderMs);
      if (disorderMs) expect(worst).toBeGreaterThan(0);
    }
  });

  it('ends at once when count is 0', () => {
    const r = scenarioReader(s, ctxOf({ count: 0 }));
    expect(r.read(10)).toEqual([]);
    expect(r.done()).toBe(true);
  });
});

describe('correlated scenarios', () => {
  const ctx = ctxOf({ count: 1000, keys: 30, disorderMs: 2000 });
  const orders = readAll(scenario('orders')!, ctx);
  const byId = new Map(orders.map((o) => [o.order_id, o]));

  it('pays about 90% of the orders, with their amounts, 0–30 s later', () => {
    const payments = readAll(scenario('payments')!, ctx);
    expect(payments.length).toBeGreaterThan(850);
    expect(payments.length).toBeLessThan(950);
    expect(new Set(payments.map((p) => p.order_id)).size).toBe(payments.length);
    for (const p of payments) {
      const o = byId.get(p.order_id)!;
      expect(o).toBeDefined();
      expect(p.amount).toBe(o.amount);
      const lag = (p.ts as number) - (o.ts as number);
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThanOrEqual(30_000);
    }
  });

  it('delivers only paid orders, picked up after payment and delivered after pick-up', () => {
    const paid = new Map(readAll(scenario('payments')!, ctx).map((p) => [p.order_id, p]));
    const events = readAll(scenario('deliveries')!, ctx);
    expect(events.length).toBe(paid.size * 2);
    const picked = new Map<unknown, number>();
    for (const d of events) {
      const p = paid.get(d.order_id)!;
      expect(p).toBeDefined();
      if (d.status === 'PICKED_UP') {
        expect(d.ts as number).toBeGreaterThan(p.ts as number);
        picked.set(d.order_id, d.ts as number);
      } else {
        expect(d.status).toBe('DELIVERED');
        expect(d.ts as number).toBeGreaterThan(picked.get(d.order_id)!);
      }
    }
  });

  it('knows every customer that orders, and versions them later in event time', () => {
    const rows = readAll(scenario('customers')!, ctx);
    const created = new Map(rows.slice(0, ctx.keys).map((c) => [c.customer_id, c]));
    expect(created.size).toBe(ctx.keys);
    for (const o of orders) expect(created.has(o.customer_id)).toBe(true);
    for (const c of rows.slice(ctx.keys)) {
      const first = created.get(c.customer_id)!;
      expect(c.name).toBe(first.name);
      expect(c.ts as number).toBeGreaterThan(first.ts as number);
    }
  });
});

describe('sequence', () => {
  it('numbers each key 1, 2, 3, … with no gap', () => {
    const rows = readAll(scenario('sequence')!, ctxOf({ count: 1003, keys: 7, disorderMs: 500 }));
    const last = new Map<string, number>();
    for (const r of rows) {
      expect(r.seq).toBe((last.get(r.key as string) ?? 0) + 1);
      last.set(r.key as string, r.seq as number);
    }
    expect(last.size).toBe(7);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i));
  });
});

describe('coffeeVisits', () => {
  it('tells enter → order → leave per visit, with amounts only on orders', () => {
    const rows = readAll(scenario('coffeeVisits')!, ctxOf({ count: 300, keys: 1000 }));
    const types = rows.map((r) => r.visit_type);
    expect(types.filter((t) => t === 'enter').length).toBe(300);
    expect(types.filter((t) => t === 'leave').length).toBe(300);
    for (const r of rows) {
      if (r.visit_type === 'order') expect(typeof r.amount).toBe('number');
      else expect([r.amount, r.drink]).toEqual([null, null]);
    }
  });
});
