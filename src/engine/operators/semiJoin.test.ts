import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import type { RowKind } from '../../core/types.ts';

const inputs = { left: { fields: { id: 'integer', a: 'string' } }, right: { fields: { id: 'integer', b: 'string' } } } as const;
const harness = (type: 'semi' | 'anti', extra: Record<string, unknown> = {}) => new OperatorHarness('semiJoin', { type, leftKey: ['id'], rightKey: ['id'], ...extra }, { inputs });
const L = (h: OperatorHarness, id: number | null, a: string, kind: RowKind = '+I') => h.processElement({ id, a }, { port: 'left', ts: 10, kind });
const R = (h: OperatorHarness, id: number | null, b: string, kind: RowKind = '+I') => h.processElement({ id, b }, { port: 'right', ts: 20, kind });

describe('semiJoin', () => {
  it('semi: a left row comes out when its key gains a first right row and goes when the last one is retracted; right duplicates count once', () => {
    const h = harness('semi');
    L(h, 1, 'x');
    R(h, 1, 'p');
    R(h, 1, 'p');
    R(h, 1, 'q');
    R(h, 1, 'p', '-D');
    R(h, 1, 'p', '-U');
    R(h, 1, 'q', '-D');
    L(h, 1, 'y');
    expect(h.lines()).toEqual(['+I {"id":1,"a":"x"}', '-D {"id":1,"a":"x"}']);
  });

  it('anti: the mirror image; left retractions pass on only while the row is out; left duplicates are emitted per copy', () => {
    const h = harness('anti');
    L(h, 1, 'x');
    L(h, 1, 'x');
    R(h, 1, 'p');
    L(h, 2, 'z');
    R(h, 1, 'p', '-D');
    L(h, 1, 'x', '-U');
    R(h, 2, 'p');
    L(h, 2, 'z', '-D');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x"}',
      '+I {"id":1,"a":"x"}',
      '-D {"id":1,"a":"x"}',
      '-D {"id":1,"a":"x"}',
      '+I {"id":2,"a":"z"}',
      '+I {"id":1,"a":"x"}',
      '+I {"id":1,"a":"x"}',
      '-U {"id":1,"a":"x"}',
      '-D {"id":2,"a":"z"}',
    ]);
  });

  it('a NULL key never matches: semi drops the row, anti keeps it whatever the right side holds', () => {
    const s = harness('semi');
    const a = harness('anti');
    for (const h of [s, a]) {
      R(h, null, 'p');
      L(h, null, 'x');
      R(h, null, 'q');
    }
    expect(s.lines()).toEqual([]);
    expect(a.lines()).toEqual(['+I {"id":null,"a":"x"}']);
  });

  it('nullSafeKeys: a NULL key matches a NULL key (IS NOT DISTINCT FROM), and not a non-NULL one', () => {
    const s = harness('semi', { nullSafeKeys: true });
    const a = harness('anti', { nullSafeKeys: true });
    for (const h of [s, a]) {
      L(h, null, 'x');
      L(h, 1, 'y');
      R(h, null, 'p');
      R(h, null, 'p', '-D');
    }
    expect(s.lines()).toEqual(['+I {"id":null,"a":"x"}', '-D {"id":null,"a":"x"}']);
    expect(a.lines()).toEqual(['+I {"id":null,"a":"x"}', '+I {"id":1,"a":"y"}', '-D {"id":null,"a":"x"}', '+I {"id":null,"a":"x"}']);
  });

  it('NOT IN (nullAware): a NULL on the right takes every left row out; a NULL on the left is out only while the right is empty', () => {
    const h = new OperatorHarness('semiJoin', { type: 'anti', leftKey: [], rightKey: [], nullAware: { left: 'id', right: 'id' } }, { inputs });
    L(h, 1, 'x');
    L(h, null, 'n');
    R(h, 2, 'p');
    R(h, null, 'q');
    R(h, null, 'q', '-D');
    R(h, 2, 'p', '-D');
    R(h, 1, 'r');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x"}',
      '+I {"id":null,"a":"n"}',
      '-D {"id":null,"a":"n"}',
      '-D {"id":1,"a":"x"}',
      '+I {"id":1,"a":"x"}',
      '+I {"id":null,"a":"n"}',
      '-D {"id":1,"a":"x"}',
      '-D {"id":null,"a":"n"}',
    ]);
  });

  it('a residual condition decides per pair, over the joined row', () => {
    const h = harness('semi', { nonEquiCondition: "b > a" });
    L(h, 1, 'm');
    R(h, 1, 'a');
    R(h, 1, 'z');
    R(h, 1, 'z', '-D');
    expect(h.lines()).toEqual(['+I {"id":1,"a":"m"}', '-D {"id":1,"a":"m"}']);
  });

  it('snapshot → restore into a fresh operator gives the same output as running on', () => {
    const feed = (h: OperatorHarness) => {
      R(h, 1, 'q', '-D');
      L(h, 2, 'w');
      R(h, 1, 'p', '-D');
      L(h, 1, 'x', '-D');
    };
    const h = harness('semi');
    L(h, 1, 'x');
    R(h, 1, 'p');
    R(h, 1, 'q');
    R(h, 2, 'p');
    const snap = h.snapshot();
    const restored = h.restored(snap);
    h.clearOutput();
    feed(h);
    feed(restored);
    expect(restored.lines()).toEqual(h.lines());
    expect(h.lines()).toEqual(['+I {"id":2,"a":"w"}', '-D {"id":1,"a":"x"}']);
    expect(restored.deadLetters).toEqual([]);
  });

  it('a retraction of a row it does not hold is a dead letter', () => {
    const h = harness('anti');
    L(h, 1, 'x', '-D');
    R(h, 1, 'p', '-D');
    expect(h.deadLetters.map((d) => d.reason)).toHaveLength(2);
    expect(h.lines()).toEqual([]);
  });
});
