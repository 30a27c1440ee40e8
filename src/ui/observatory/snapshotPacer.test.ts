import { describe, expect, it } from 'vitest';
import type { LogLine, RunSnapshot } from '../../worker/protocol.ts';
import { perFrame } from './snapshotPacer.ts';

const line = (seq: number): LogLine => ({ seq, level: 'info', at: 0, message: `line ${seq}` });
const snap = (records: number, status: RunSnapshot['status'] = 'running', log: LogLine[] = []): RunSnapshot => ({
  status, records, rate: 0, clockMs: 0, metrics: {}, deadLetters: {}, sinks: {}, log, checkpoints: 0, error: null, restarts: 0, frame: null,
});

function harness() {
  const applied: RunSnapshot[] = [];
  const queued: (() => void)[] = [];
  const accept = perFrame((s) => applied.push(s), (fn) => queued.push(fn));
  const frame = () => queued.splice(0).forEach((fn) => fn());
  return { applied, queued, accept, frame };
}

describe('perFrame', () => {
  it('applies only the latest running snapshot of a frame, keeping every log line in order', () => {
    const h = harness();
    h.accept(snap(1, 'running', [line(1)]));
    h.accept(snap(2));
    h.accept(snap(3, 'running', [line(2), line(3)]));
    expect(h.applied).toHaveLength(0);
    expect(h.queued).toHaveLength(1);
    h.frame();
    expect(h.applied.map((s) => s.records)).toEqual([3]);
    expect(h.applied[0].log.map((l) => l.seq)).toEqual([1, 2, 3]);
    h.accept(snap(4));
    h.frame();
    expect(h.applied.map((s) => s.records)).toEqual([3, 4]);
    expect(h.applied[1].log).toEqual([]);
  });

  it('applies a pause, step or finish at once, with the log of the snapshots it replaces', () => {
    const h = harness();
    h.accept(snap(1, 'running', [line(1)]));
    h.accept(snap(2, 'finished', [line(2)]));
    expect(h.applied.map((s) => [s.records, s.status])).toEqual([[2, 'finished']]);
    expect(h.applied[0].log.map((l) => l.seq)).toEqual([1, 2]);
    h.frame(); // the frame scheduled for snapshot 1 finds nothing left to apply
    expect(h.applied).toHaveLength(1);
    h.accept(snap(3, 'paused'));
    h.accept(snap(4, 'paused'));
    expect(h.applied.map((s) => s.records)).toEqual([2, 3, 4]);
  });
});
