import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import type { ByteSource } from '../core/lineSource.ts';

const bytes = (text: string): ByteSource => {
  const all = new TextEncoder().encode(text);
  return { size: all.length, read: (s, e) => all.subarray(s, Math.min(e, all.length)) };
};
const csv = (n: number, last = 'x') => `id,s\n${Array.from({ length: n }, (_, i) => `${i},${i === n - 1 ? last : 'x'}`).join('\n')}\n`;
const plan = () =>
  planOrThrow({
    format: 'weir/pipeline',
    version: 1,
    name: 'file_resume',
    nodes: [
      { id: 'src', kind: 'fileSource', params: { format: 'csv', schema: { id: 'integer', s: 'string' } } },
      { id: 'out', kind: 'collectSink', params: {} },
    ],
    edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
  });

describe('resuming a file source', () => {
  it('refuses a checkpoint of another file, saying which source and file and what to do; resumes the same file', async () => {
    const store = new MemoryCheckpointStore();
    const run = (text: string) => new LocalCluster(plan(), { jobId: 'j', store, checkpointIntervalMs: 5, retain: 100, batchSize: 16, inputs: { src: { name: 'sales.csv', bytes: bytes(text) } } });
    const first = run(csv(2000));
    expect((await first.run()).status).toBe('finished');
    expect(first.checkpointHistory().filter((c) => c.status === 'completed').length).toBeGreaterThan(2);
    await expect(run(csv(2000, 'y')).run()).rejects.toThrow(/source "src": file "sales.csv" is not the file the checkpoint read \(it has the same size but other contents\): give the source the file it read to resume, or run the pipeline again from the start/);
    await expect(run(csv(1999)).run()).rejects.toThrow(/it has \d+ bytes, the checkpoint's file had \d+/);
    const same = run(csv(2000));
    const restored: number[] = [];
    same.onEvent((e) => e.type === 'restored' && restored.push(e.checkpointId ?? -1));
    const res = await same.run();
    expect(res.status).toBe('finished');
    expect(restored).toHaveLength(1);
  });
});
