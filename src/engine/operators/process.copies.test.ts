import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

const keyed = { inputs: { in: { keyedBy: ['user'] } } };

// Changes in place what it is handed: the row, and the state value it reads after writing it.
const meddler = `({
  state: { seen: { kind: 'value' } },
  processElement(row, ctx) {
    const before = ctx.state.seen.value();
    const n = before ? before.n : 0;
    ctx.state.seen.update({ n: n + 1, tags: row.tags });
    const after = ctx.state.seen.value();
    after.n = 999;
    after.tags.push('in place');
    row.tags.push('mutated');
    row.id = 'changed';
    ctx.emit({ n: n + 1, tags: row.tags });
  },
})`;

describe("process: the code never holds the host's objects", () => {
  for (const [how, feed] of [
    ['one call per record', (h: OperatorHarness, rows: Record<string, unknown>[]) => rows.forEach((r) => h.processElement(r))],
    ['one crossing per batch', (h: OperatorHarness, rows: Record<string, unknown>[]) => h.processBatch(rows)],
  ] as const) {
    it(`a row or a state value it changes in place stays as the host has it (${how})`, () => {
      const rows = [1, 2, 3].map(() => ({ user: 'u', id: 'a', tags: ['t'] }));
      const h = new OperatorHarness('process', { code: meddler }, keyed);
      feed(h, rows);
      expect(rows).toEqual([1, 2, 3].map(() => ({ user: 'u', id: 'a', tags: ['t'] })));
      expect(h.output().map((e) => e.row)).toEqual([1, 2, 3].map((n) => ({ n, tags: ['t', 'mutated'] })));
      expect(JSON.stringify(h.snapshot().keyed)).toContain('{"n":3,"tags":["t"]}');
    });
  }

  it('a row with an own "__proto__" field reaches the code as that field', () => {
    const h = new OperatorHarness('process', { code: '({ processElement(row, ctx) { ctx.emit({ own: Object.keys(row).join(","), x: row.__proto__.x }); } })' }, keyed);
    h.processBatch([JSON.parse('{"user":"u","__proto__":{"x":1}}'), JSON.parse('{"user":"v","__proto__":{"x":2}}')]);
    expect(h.output().map((e) => e.row)).toEqual([
      { own: 'user,__proto__', x: 1 },
      { own: 'user,__proto__', x: 2 },
    ]);
  });
});
