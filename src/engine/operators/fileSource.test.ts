import { describe, expect, it } from 'vitest';
import { LocalCluster } from '../../runtime/localCluster.ts';
import { planOrThrow, runPipeline } from '../../testing/runPipeline.ts';
import type { ByteSource } from '../../core/lineSource.ts';

const doc = {
  format: 'weir/pipeline', version: 1, name: 'streamed_csv',
  nodes: [
    { id: 'src', kind: 'fileSource', params: { format: 'csv', schema: { user: 'string', n: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['user'], aggregates: [{ fn: 'count', as: 'cnt' }, { fn: 'sum', field: 'n', as: 'total' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

const lines = ['user,n,ts', ...Array.from({ length: 2000 }, (_, i) => (i % 97 === 5 ? 'broken' : `u${i % 13},${i},${1_700_000_000_000 + i}`))];
const all = new TextEncoder().encode(lines.join('\n') + '\n');
const bytes = (): ByteSource & { reads: number } => {
  const b = { size: all.length, reads: 0, read: (s: number, e: number) => (b.reads++, all.slice(s, Math.min(e, all.length))) };
  return b;
};

describe('fileSource over a file read in blocks', () => {
  it('gives the same view and dead letters as the file read whole, also when killed and restored from checkpoints', async () => {
    const whole = runPipeline(doc, { inputs: { src: { name: 'x.csv', lines } } });
    const sorted = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.user).localeCompare(String(b.user)));
    const src = bytes();
    const killed = await new LocalCluster(planOrThrow(doc), {
      inputs: { src: { name: 'x.csv', bytes: src } },
      checkpointIntervalMs: 3,
      batchSize: 16,
      kills: [{ atStep: 40, subtask: 'src#0' }, { atStep: 120, subtask: 'agg#0' }],
      restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 5 },
    }).run();
    expect(killed.status, killed.reason).toBe('finished');
    expect(killed.restarts).toBe(2);
    expect(sorted(killed.views.view)).toEqual(sorted(whole.views.view));
    expect(killed.deadLetters.map((d) => d.line)).toEqual(whole.deadLetters.map((d) => d.line));
    expect(whole.deadLetters.length).toBe(21);
    // Each restart opened the source again on the same bytes (the Blob), not on a copy kept in memory.
    expect(src.reads).toBeGreaterThanOrEqual(3);
  });
});
