import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';
import { compile } from '../pipeline/compile.ts';

const TERMS = 200_000;
const orChain = Array.from({ length: TERMS }, (_, i) => `amount = ${i}`).join(' OR ');

const filterDoc = (where: string) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'long where',
  nodes: [
    { id: 'visits', kind: 'fileSource', params: { schema: { customer: 'string', amount: 'number' } } },
    { id: 'f', kind: 'filter', params: { where } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'visits', port: 'out' }, to: { node: 'f', port: 'in' } },
    { from: { node: 'f', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

describe('a where of 200,000 terms', () => {
  it('validates without blowing the stack, within seconds', () => {
    const t0 = performance.now();
    const r = compile(filterDoc(orChain));
    expect(r.problems).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it('evaluates as written: the first, a middle and the last term match, others do not, NULL stays unknown', () => {
    const e = compileExpr(orChain);
    expect([0, 123_456, TERMS - 1, TERMS, -1].map((amount) => e.evaluate({ amount }))).toEqual([true, true, true, false, false]);
    expect(e.evaluate({ amount: null })).toBe(null);
    // Three-valued logic is kept across the balanced tree: NULL OR TRUE is TRUE, NULL AND FALSE is FALSE.
    const mixed = compileExpr([...Array.from({ length: 100 }, () => 'amount > 1'), 'customer = \'x\''].join(' OR '));
    expect([mixed.evaluate({ amount: null, customer: 'x' }), mixed.evaluate({ amount: null, customer: 'y' }), mixed.evaluate({ amount: 0, customer: 'y' })]).toEqual([true, null, false]);
    const all = compileExpr([...Array.from({ length: 100 }, () => 'amount > 1'), 'customer = \'x\''].join(' AND '));
    expect([all.evaluate({ amount: null, customer: 'y' }), all.evaluate({ amount: 2, customer: 'x' }), all.evaluate({ amount: null, customer: 'x' })]).toEqual([false, true, null]);
  });

  it('a chain that cannot be balanced (200,000 additions) is refused by name and position, not with a stack overflow', () => {
    const sum = `${Array.from({ length: TERMS }, () => 'amount').join(' + ')} > 0`;
    const r = compile(filterDoc(sum));
    expect(r.problems.map((p) => p.message)).toEqual([expect.stringMatching(/Expression too long: more than 1000 operators chained in one term; split it/)]);
    expect(JSON.stringify(r.problems)).not.toMatch(/call stack/i);
  });
});
