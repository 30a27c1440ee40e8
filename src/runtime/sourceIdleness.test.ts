import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';
import { jsonLinesReader } from '../core/source.ts';
import type { RawRecord, SourceReader } from '../core/source.ts';
import { MIN_WATERMARK } from '../core/types.ts';

const schema = { customer: 'string', ts: 'timestamp' };

/**
 * fast (300 records, one per 10 ms of event time) and slow (one record, then silence, then a last
 * one) → union → tumbling 1 s count per customer, every operator at parallelism `p`.
 */
function doc(p: number, idleTimeoutMs?: number, viaMap = false) {
  const eventTime = { field: 'ts', maxOutOfOrdernessMs: 0, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) };
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'idleness',
    nodes: [
      { id: 'fast', kind: 'fileSource', params: { schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'slow', kind: 'fileSource', params: { schema, eventTime } },
      ...(viaMap ? [{ id: 'tag', kind: 'filter', params: { where: 'ts >= 0' }, parallelism: p }] : []),
      { id: 'both', kind: 'union', params: {}, parallelism: p },
      { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] }, parallelism: p },
      { id: 'out', kind: 'viewSink', params: {}, parallelism: p },
    ],
    edges: [
      { from: { node: 'fast', port: 'out' }, to: { node: 'both', port: 'in' } },
      ...(viaMap
        ? [
            { from: { node: 'slow', port: 'out' }, to: { node: 'tag', port: 'in' } },
            { from: { node: 'tag', port: 'out' }, to: { node: 'both', port: 'in' } },
          ]
        : [{ from: { node: 'slow', port: 'out' }, to: { node: 'both', port: 'in' } }]),
      { from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } },
      { from: { node: 'per_sec', port: 'out' }, to: { node: 'out', port: 'in' } },
    ],
  };
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ customer: `c${i % 5}`, ts: i * 10 }));

/**
 * A source that sends one record, then nothing (not ended) for `silentReads` reads, then its last
 * record: like a Kafka partition that stops receiving data for a while.
 */
function stallingReader(silentReads: number, onLast: () => void): SourceReader {
  let reads = 0;
  let pos = 0;
  const records: RawRecord[] = [
    { value: { customer: 'slow', ts: 0 }, raw: '', line: 1 },
    { value: { customer: 'slow', ts: 2990 }, raw: '', line: 2 },
  ];
  return {
    read() {
      reads++;
      if (pos === 0 || (pos === 1 && reads > silentReads)) {
        if (pos === 1) onLast();
        return [records[pos++]];
      }
      return [];
    },
    done: () => pos >= records.length,
    offset: () => pos,
    seek: (o) => void (pos = o),
  };
}

/** The highest watermark any window subtask had reached when the slow source broke its silence. */
async function windowWatermarkWhenSlowResumes(p: number, idleTimeoutMs?: number, viaMap = false): Promise<{ wm: number; rows: number }> {
  let wm = MIN_WATERMARK;
  const cluster: LocalCluster = new LocalCluster(planOrThrow(doc(p, idleTimeoutMs, viaMap)), {
    scheduleSeed: 7,
    batchSize: 10,
    readers: {
      fast: jsonLinesReader(lines(300)),
      slow: stallingReader(2000, () => (wm = Math.max(...cluster.subtasksOf('per_sec').map((r) => r.watermark())))),
    },
  });
  const res = await cluster.run();
  expect(res.status).toBe('finished');
  return { wm, rows: res.views.out.length };
}

describe('source idleness in the source task', () => {
  it('without idleTimeoutMs a silent source holds the watermark back (parallelism 3)', async () => {
    const { wm, rows } = await windowWatermarkWhenSlowResumes(3);
    expect(wm).toBeLessThan(0);
    // 3 windows × 5 customers of fast, and both of slow's records in time.
    expect(rows).toBe(17);
  });

  it('with idleTimeoutMs the silent source goes idle and the other input drives the watermark (parallelism 3)', async () => {
    const { wm, rows } = await windowWatermarkWhenSlowResumes(3, 50);
    // fast ended meanwhile: with slow idle, nothing holds the windows back (Flink's withIdleness).
    expect(wm).toBe(Infinity);
    // So slow's last record (ts 2990) comes after its window fired: late, as in Flink.
    expect(rows).toBe(16);
  });

  it('an operator whose every input is idle tells its downstream, so idleness crosses a chain', async () => {
    expect((await windowWatermarkWhenSlowResumes(3, undefined, true)).wm).toBeLessThan(0);
    expect((await windowWatermarkWhenSlowResumes(3, 50, true)).wm).toBe(Infinity);
    expect((await windowWatermarkWhenSlowResumes(1, 50, true)).wm).toBe(Infinity);
  });
});
