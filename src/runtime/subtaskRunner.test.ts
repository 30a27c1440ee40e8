import { describe, expect, it } from 'vitest';
import { compile } from '../pipeline/compile.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { insert } from '../core/types.ts';
import { SubtaskRunner, type RunnerHost } from './subtaskRunner.ts';

const doc = () =>
  compile({
    format: 'weir/pipeline',
    version: 1,
    name: 'late trigger',
    nodes: [
      { id: 'src', kind: 'fileSource', params: { path: 'in.jsonl', schema: { n: 'number' } } },
      { id: 'out', kind: 'viewSink', params: {} },
    ],
    edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
  }).plan!;

/** A subtask of `node` driven by hand, recording the snapshots it takes and the messages it sends. */
function subtask(node: string, extra: { maxRecordsPerCheckpoint?: number; lines?: string[] } = {}) {
  const plan = doc();
  const sent: Parameters<RunnerHost['send']>[3][] = [];
  const snaps: { id: number; snap: SubtaskSnapshot }[] = [];
  const host: RunnerHost = {
    clock: { now: () => 0 },
    hasCredit: () => true,
    send: (_e, _f, _t, msg) => void sent.push(msg),
    snapshotTaken: (id, snap) => void snaps.push({ id, snap }),
    declined: () => {},
    publish: () => {},
    publishDeadLetters: () => {},
    deadLetter: () => true,
  };
  const inputs = extra.lines ? { src: { name: 'in.jsonl', lines: extra.lines } } : undefined;
  const runner = new SubtaskRunner({ plan, node: plan.nodes.find((n) => n.id === node)!, index: 0, host, inputs, batchSize: 4, maxRecordsPerCheckpoint: extra.maxRecordsPerCheckpoint });
  const feed = (...msgs: Parameters<SubtaskRunner['enqueue']>[1][]) => {
    for (const m of msgs) runner.enqueue(runner.channelIndex(0, 0), m);
    while (runner.runOne());
  };
  return { runner, snaps, sent, feed };
}

describe('SubtaskRunner and a checkpoint trigger that arrives after its barrier', () => {
  it('takes that snapshot once, and the rows after the barrier stay in the next epoch', () => {
    const { runner, snaps, feed } = subtask('out');
    feed({ t: 'batch', els: [insert({ n: 1 })] }, { t: 'barrier', id: 1 });
    // The trigger of checkpoint 1 comes late (it travels apart from the data), then more rows, then the end.
    runner.triggered(1);
    feed({ t: 'batch', els: [insert({ n: 2 })] });
    runner.triggered(2);
    feed({ t: 'end' });
    expect(snaps.map((s) => s.id)).toEqual([1, 2]);
    const epochs = snaps[1].snap.pendingCommits!.map((c) => ({ epoch: c.epoch, rows: c.els.map((e) => e.row) }));
    // Epoch 1 is still pending (checkpoint 1 has not completed) and the row after the barrier is in epoch 2, not in epoch 1.
    expect(epochs).toEqual([
      { epoch: 1, rows: [{ n: 1 }] },
      { epoch: 2, rows: [{ n: 2 }] },
    ]);
  });
});

describe('a source with a records-per-checkpoint limit', () => {
  it('reads at most that many records between two barriers, however fast it runs', () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ n: i }));
    const { runner, sent } = subtask('src', { maxRecordsPerCheckpoint: 3, lines });
    const drain = () => {
      while (runner.runOne());
    };
    const rowsSent = () => sent.flatMap((m) => (m.t === 'batch' ? m.els.map((e) => e.row.n) : []));
    drain();
    expect(runner.sourceOffset()).toBe(3);
    expect(runner.runnable()).toBe(false);
    runner.triggered(1);
    drain();
    expect(runner.sourceOffset()).toBe(6);
    runner.triggered(2);
    runner.triggered(3);
    drain();
    runner.triggered(4);
    drain();
    expect(runner.finished).toBe(true);
    // barriers exactly after 3, 6 and 9 records (checkpoint 3 right after 2: no records between them)
    expect(sent.filter((m) => m.t === 'barrier' || m.t === 'batch').map((m) => (m.t === 'barrier' ? `|${m.id}` : m.els.length)).join(' ')).toBe('3 |1 3 |2 |3 3 |4 1');
    expect(rowsSent()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
