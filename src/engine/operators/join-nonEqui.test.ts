import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { expectRestoreMatches } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';
import type { RowKind } from '../../core/types.ts';

const inputs = { left: { fields: { id: 'integer', a: 'integer' } }, right: { fields: { id: 'integer', b: 'integer' } } } as const;
const harness = (type: string, cond = 'b > a') => new OperatorHarness('join', { type, leftKey: ['id'], rightKey: ['id'], nonEquiCondition: cond }, { inputs });
const L = (h: OperatorHarness, a: number, kind: RowKind = '+I') => h.processElement({ id: 1, a }, { port: 'left', ts: 10, kind });
const R = (h: OperatorHarness, b: number, kind: RowKind = '+I') => h.processElement({ id: 1, b }, { port: 'right', ts: 20, kind });

describe('join with a non-equi condition', () => {
  it('inner: only pairs satisfying the residual join, both on arrival and on retraction', () => {
    const h = harness('inner');
    L(h, 5);
    R(h, 3);
    R(h, 7);
    L(h, 5, '-D');
    expect(h.lines()).toEqual(['+I {"id":1,"a":5,"id_right":1,"b":7}', '-D {"id":1,"a":5,"id_right":1,"b":7}']);
  });

  it('left: the padded row stays while no partner satisfies the residual, leaves at the first that does, returns after the last', () => {
    const h = harness('left');
    L(h, 5);
    R(h, 3); // equi-match, residual false: the left row stays padded
    R(h, 7); // first satisfying partner
    R(h, 9); // second one: no padding change
    R(h, 3, '-D'); // a non-satisfying partner leaving changes nothing
    R(h, 7, '-D');
    R(h, 9, '-D'); // last satisfying partner: padding returns
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":5,"id_right":null,"b":null}',
      '-D {"id":1,"a":5,"id_right":null,"b":null}',
      '+I {"id":1,"a":5,"id_right":1,"b":7}',
      '+I {"id":1,"a":5,"id_right":1,"b":9}',
      '-D {"id":1,"a":5,"id_right":1,"b":7}',
      '-D {"id":1,"a":5,"id_right":1,"b":9}',
      '+I {"id":1,"a":5,"id_right":null,"b":null}',
    ]);
  });

  it('right: a left row that satisfies the residual for one right row only unpads that one', () => {
    const h = harness('right');
    R(h, 3);
    R(h, 9);
    L(h, 5); // satisfies b > a for b = 9 only
    L(h, 5, '-U');
    expect(h.lines()).toEqual([
      '+I {"id":null,"a":null,"id_right":1,"b":3}',
      '+I {"id":null,"a":null,"id_right":1,"b":9}',
      '-D {"id":null,"a":null,"id_right":1,"b":9}',
      '+I {"id":1,"a":5,"id_right":1,"b":9}',
      '-D {"id":1,"a":5,"id_right":1,"b":9}',
      '+I {"id":null,"a":null,"id_right":1,"b":9}',
    ]);
  });

  it('full: both sides padded independently; a NULL residual is no match', () => {
    const h = harness('full');
    L(h, 5);
    h.processElement({ id: 1, b: null }, { port: 'right', ts: 20 });
    R(h, 6);
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":5,"id_right":null,"b":null}',
      '+I {"id":null,"a":null,"id_right":1,"b":null}',
      '-D {"id":1,"a":5,"id_right":null,"b":null}',
      '+I {"id":1,"a":5,"id_right":1,"b":6}',
    ]);
  });

  it('validation names a residual that reads an unknown column or does not parse', async () => {
    const { kindSpec } = await import('../../pipeline/kinds/index.ts');
    const infer = (cond: string) =>
      kindSpec('join')!
        .infer({ params: { type: 'left', leftKey: ['id'], rightKey: ['id'], nonEquiCondition: cond }, inputs: { left: { ...inputs.left, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null }, right: { ...inputs.right, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null } } } as never)
        .problems!.map((p) => `${p.field}: ${p.code}`);
    expect(infer('b > zz')).toEqual(['params.nonEquiCondition: unknown-field']);
    expect(infer('b >')).toEqual(['params.nonEquiCondition: bad-expression']);
    expect(infer('b > a AND id_right = id')).toEqual([]);
  });

  it('full outer with a residual survives snapshot and restore at every point', () => {
    const steps: Step[] = [];
    let x = 11;
    const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
    const live: Step[] = [];
    for (let i = 0; i < 60; i++) {
      const port = next(2) ? 'left' : 'right';
      const s: Step = { row: { id: next(2), [port === 'left' ? 'a' : 'b']: next(10) }, port, ts: i };
      steps.push(s);
      live.push(s);
      if (i % 5 === 4) steps.push({ ...(live.splice(next(live.length), 1)[0] as Step & { row: object }), kind: '-D' });
    }
    const whole = expectRestoreMatches(() => harness('full'), steps, [7, 23, 41, steps.length - 3]);
    expect(whole.output().length).toBeGreaterThan(40);
  });
});
