import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { compile } from '../../pipeline/compile.ts';
import { expectRestoreMatches } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';

const inputs = { in: { fields: { k: 'string', v: 'integer', ts: 'timestamp' } as const, eventTime: 'ts', keyedBy: null, changelog: 'update' as const, uniqueKey: ['k'] } };
const win = (lateness = 0) =>
  new OperatorHarness('window', { type: 'tumble', sizeMs: 100, groupBy: [], aggregates: [{ fn: 'sum', field: 'v', as: 's' }, { fn: 'count', as: 'n' }], allowedLatenessMs: lateness }, { inputs });

describe('window aggregate over an updating input', () => {
  it('a -U stamped with the displacing row\'s time still retracts from the window of its own row', () => {
    const h = win();
    h.processElement({ k: 'a', v: 5, ts: 10 }, { ts: 10 });
    // Deduplicate (keep last by event time) emits -U old / +U new, both at the new row's time.
    h.processElement({ k: 'a', v: 5, ts: 10 }, { ts: 150, kind: '-U' });
    h.processElement({ k: 'a', v: 7, ts: 150 }, { ts: 150, kind: '+U' });
    h.processWatermark(Infinity);
    expect(h.deadLetters).toEqual([]);
    expect(h.lines()).toEqual(['+I {"window_start":100,"window_end":200,"window_time":199,"s":7,"n":1}']);
  });

  it('a retraction for a window that already fired updates its result (-U/+U) within allowed lateness', () => {
    const h = win(1000);
    h.processElement({ k: 'a', v: 5, ts: 10 }, { ts: 10 });
    h.processElement({ k: 'b', v: 2, ts: 20 }, { ts: 20 });
    h.processWatermark(150);
    h.processElement({ k: 'a', v: 5, ts: 10 }, { ts: 160, kind: '-U' });
    h.processElement({ k: 'a', v: 6, ts: 160 }, { ts: 160, kind: '+U' });
    h.processElement({ k: 'b', v: 2, ts: 20 }, { ts: 170, kind: '-D' });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([
      '+I {"window_start":0,"window_end":100,"window_time":99,"s":7,"n":2}',
      '-U {"window_start":0,"window_end":100,"window_time":99,"s":7,"n":2}',
      '+U {"window_start":0,"window_end":100,"window_time":99,"s":2,"n":1}',
      '-D {"window_start":0,"window_end":100,"window_time":99,"s":2,"n":1}',
      '+I {"window_start":100,"window_end":200,"window_time":199,"s":6,"n":1}',
    ]);
  });

  it('survives snapshot and restore with retractions in flight', () => {
    const steps: Step[] = [];
    for (let i = 0; i < 40; i++) {
      const ts = i * 17;
      steps.push({ row: { k: `k${i % 3}`, v: i, ts }, ts });
      if (i > 2 && i % 3 === 0) {
        const old = i - 3;
        steps.push({ row: { k: `k${old % 3}`, v: old, ts: old * 17 }, ts, kind: '-U' });
      }
      if (i % 4 === 0) steps.push({ wm: ts - 60 });
    }
    steps.push({ wm: Infinity });
    const whole = expectRestoreMatches(() => win(80), steps, [5, 30, 50], ['out', 'late']);
    expect(whole.deadLetters).toEqual([]);
    expect(whole.output().length).toBeGreaterThan(5);
  });

  it('validation: Deduplicate (last by event time) → Window is accepted; Group by → Window names the updating input as the cause', () => {
    const src = { id: 'src', kind: 'inlineSource', params: { schema: { k: 'string', v: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 }, rows: [] } };
    const w = { id: 'w', kind: 'window', params: { type: 'tumble', sizeMs: 100, groupBy: [], aggregates: [{ fn: 'count', as: 'n' }] } };
    const sink = { id: 'out', kind: 'collectSink', params: {} };
    const doc = (mid: Record<string, unknown>) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 't',
      nodes: [src, mid, w, sink],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'mid', port: 'in' } },
        { from: { node: 'mid', port: 'out' }, to: { node: 'w', port: 'in' } },
        { from: { node: 'w', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    const problemsOf = (mid: Record<string, unknown>) => compile(doc(mid) as never).problems.filter((p) => p.target === "w");
    expect(problemsOf({ id: 'mid', kind: 'dedup', params: { key: ['k'], keep: 'last', order: 'eventTime' } })).toEqual([]);
    const grouped = problemsOf({ id: 'mid', kind: 'aggregate', params: { groupBy: ['k', 'ts'], aggregates: [{ fn: 'sum', field: 'v', as: 'v' }] } });
    expect(grouped.map((p) => p.code)).toEqual(['updating-input-without-event-time']);
    expect(grouped[0].message).toMatch(/updating result without event time.*Group by/);
  });
});
