import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { seededRng } from '../../core/rng.ts';
import type { RowKind } from '../../core/types.ts';
import { joinViewKind } from './joinViews.ts';
import type { JoinBufferView } from './join.ts';

type Step = { port: 'left' | 'right'; row: Record<string, unknown>; kind: RowKind; ts: number };

const fields = { left: { id: 'integer', a: 'string', v: 'integer' }, right: { id: 'integer', b: 'string' } } as const;
// Left's unique key (id, a) is wider than the join key: a map by unique key. Right's (id) is the join key: one row per key.
const keyed = { left: { fields: fields.left, uniqueKey: ['id', 'a'] }, right: { fields: fields.right, uniqueKey: ['id'] } };
const plain = { left: { fields: fields.left }, right: { fields: fields.right } };
const harness = (type: string, inputs: typeof keyed | typeof plain) => new OperatorHarness('join', { type, leftKey: ['id'], rightKey: ['id'] }, { inputs });

/** A changelog per side that honours its unique key: inserts, −U/+U updates and deletes, NULL keys included. */
function changelog(seed: number, n: number): Step[] {
  const rng = seededRng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)];
  const held = { left: new Map<string, Record<string, unknown>>(), right: new Map<string, Record<string, unknown>>() };
  const steps: Step[] = [];
  while (steps.length < n) {
    const port = rng.next() < 0.5 ? 'left' : 'right';
    const id = pick([1, 2, 3, 4, null]);
    const row = port === 'left' ? { id, a: pick(['x', 'y', 'null', null]), v: Math.floor(rng.next() * 9) } : { id, b: pick(['p', 'q', 'r']) };
    const uk = JSON.stringify(port === 'left' ? [row.id, (row as { a: unknown }).a] : [row.id]);
    const old = held[port].get(uk);
    if (!old) {
      held[port].set(uk, row);
      steps.push({ port, row, kind: '+I', ts: steps.length });
    } else if (rng.next() < 0.4) {
      held[port].delete(uk);
      steps.push({ port, row: old, kind: '-D', ts: steps.length });
    } else {
      held[port].set(uk, row);
      steps.push({ port, row: old, kind: '-U', ts: steps.length }, { port, row, kind: '+U', ts: steps.length });
    }
  }
  return steps;
}

const feed = (h: OperatorHarness, steps: readonly Step[]) => steps.forEach((s) => h.processElement(s.row, { port: s.port, ts: s.ts, kind: s.kind }));
const sorted = (h: OperatorHarness) => (h.task.operator.inspect!() as JoinBufferView[]).map((b) => JSON.stringify(b)).sort();

describe('join state views by unique key', () => {
  it('picks the view as Flink: join key ⊇ unique key, a unique key, or whole rows', () => {
    expect(joinViewKind(['id'], ['id'])).toBe('key');
    expect(joinViewKind(['id', 'window_start'], ['window_start', 'id'])).toBe('key');
    expect(joinViewKind(['id'], [])).toBe('key');
    expect(joinViewKind(['id'], ['id', 'name'])).toBe('unique');
    expect(joinViewKind(['id'], null)).toBe('rows');
  });

  for (const type of ['inner', 'left', 'right', 'full']) {
    it(`${type}: the same changelog, dead letters and buffers as whole-row views, across a snapshot`, () => {
      const steps = changelog(7 + type.length, 600);
      const rows = harness(type, plain);
      const views = harness(type, keyed);
      feed(rows, steps.slice(0, 300));
      feed(views, steps.slice(0, 300));
      const restored = views.restored(views.snapshot());
      feed(rows, steps.slice(300));
      feed(restored, steps.slice(300));
      expect(views.lines().concat(restored.lines())).toEqual(rows.lines());
      expect(sorted(restored)).toEqual(sorted(rows));
      expect(views.deadLetters.length + restored.deadLetters.length).toBe(rows.deadLetters.length);
    });

    it(`${type}: a checkpoint of whole-row views restores into unique-key views`, () => {
      const steps = changelog(11 + type.length, 600);
      const before = harness(type, plain);
      feed(before, steps.slice(0, 300));
      const after = harness(type, keyed);
      after.task.restore(before.snapshot());
      const whole = harness(type, plain);
      feed(whole, steps);
      feed(after, steps.slice(300));
      expect(after.lines()).toEqual(whole.lines().slice(before.output().length));
      expect(after.deadLetters.length + before.deadLetters.length).toBe(whole.deadLetters.length);
      expect(sorted(after)).toEqual(sorted(whole));
      // inspect read every key, and each key read left the old layout.
      expect(after.task.state.keys('join.left').length + after.task.state.keys('join.right').length).toBe(0);
    });
  }

  it('a retraction of a row the side does not hold still goes to dead letters', () => {
    const h = harness('inner', keyed);
    h.processElement({ id: 1, b: 'p' }, { port: 'right', ts: 1, kind: '-D' });
    h.processElement({ id: 1, a: 'x', v: 1 }, { port: 'left', ts: 1, kind: '-D' });
    expect(h.deadLetters.map((d) => d.reason)).toEqual([
      'retraction (-D) of a right row the join does not hold (never inserted, or expired by ttlMs)',
      'retraction (-D) of a left row the join does not hold (never inserted, or expired by ttlMs)',
    ]);
  });
});
