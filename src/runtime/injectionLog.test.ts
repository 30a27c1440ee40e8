import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';
import { parseInjectValues } from './injectValues.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { InjectionLog } from './injectionLog.ts';

const rows = Array.from({ length: 400 }, (_, i) => ({ user: `u${i % 5}`, amount: 1, ts: i * 10 }));

/** Sum of amount per user into a view: an injected amount of 1000 shows up exactly once, or the sum says how often. */
const doc = (parallelism: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'inject',
  settings: { parallelism: 1 },
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows, schema: { user: 'string', amount: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } }, parallelism },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['user'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'count', as: 'n' }] }, parallelism: 2 },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

const totalOf = (c: LocalCluster, user: string) => c.result().views.view.find((r) => r.user === user)?.total;

async function toCompletedCheckpoints(c: LocalCluster, n: number) {
  while (c.checkpointHistory().filter((r) => r.status === 'completed').length < n) expect(await c.step()).toBe('running');
}

describe('injected records', () => {
  for (const parallelism of [1, 2]) {
    it(`survive a kill and a restore exactly once (source parallelism ${parallelism})`, async () => {
      const c = new LocalCluster(planOrThrow(doc(parallelism)), { checkpointIntervalMs: 20, batchSize: 4 });
      await c.start();
      await toCompletedCheckpoints(c, 1);
      // Injected after the checkpoint: the restore must read it again, once.
      expect(c.inject('src', { user: 'new', amount: '1000', ts: '5' })).toEqual({ ok: true, row: { user: 'new', amount: 1000, ts: 5 } });
      for (let i = 0; i < 15; i++) await c.step();
      expect(totalOf(c, 'new')).toBeUndefined(); // not published before the next checkpoint completes
      // Killed once after a checkpoint that holds it and once with it in flight: read once in all.
      await toCompletedCheckpoints(c, 3);
      c.kill('agg#0');
      for (let i = 0; i < 6; i++) await c.step();
      c.inject('src', { user: 'new', amount: '1000', ts: '6' });
      for (let i = 0; i < 6; i++) await c.step();
      c.kill('src#0');
      while ((await c.step()) === 'running');
      expect(c.result().status).toBe('finished');
      expect(c.result().restarts).toBeGreaterThan(0);
      expect(totalOf(c, 'new')).toBe(2000);
      expect(c.result().views.view.reduce((s, r) => s + (r.n as number), 0)).toBe(402);
    });
  }

  it('survive time travel to a checkpoint before and after they were read, exactly once', async () => {
    const c = new LocalCluster(planOrThrow(doc(1)), { checkpointIntervalMs: 15, batchSize: 4, retain: 20 });
    await c.start();
    await toCompletedCheckpoints(c, 1);
    const before = c.checkpointHistory().find((r) => r.status === 'completed')!.checkpointId;
    c.inject('src', { user: 'u0', amount: '1000', ts: '0' });
    await toCompletedCheckpoints(c, 4);
    const after = c.checkpointHistory().filter((r) => r.status === 'completed').at(-1)!.checkpointId;
    await c.restoreTo(before); // the record comes again from the log
    await toCompletedCheckpoints(c, 6);
    await c.restoreTo(after); // the record is inside this checkpoint's state: not read again
    while ((await c.step()) === 'running');
    expect(totalOf(c, 'u0')).toBe(80 + 1000);
    expect(c.result().views.view.reduce((s, r) => s + (r.n as number), 0)).toBe(401);
  });

  it('a job resumed in a new process from the checkpoint store keeps read and unread injections, and takes new ones', async () => {
    const store = new MemoryCheckpointStore();
    const first = new LocalCluster(planOrThrow(doc(1)), { checkpointIntervalMs: 20, batchSize: 4, store, jobId: 'j' });
    await first.start();
    first.inject('src', { user: 'read', amount: '1000', ts: '1' });
    await toCompletedCheckpoints(first, 2); // 'read' is inside the state now
    const resumed = new LocalCluster(planOrThrow(doc(1)), { checkpointIntervalMs: 20, batchSize: 4, store, jobId: 'j' });
    await resumed.start();
    resumed.inject('src', { user: 'later', amount: '7', ts: '2' });
    while ((await resumed.step()) === 'running');
    expect(totalOf(resumed, 'read')).toBe(1000);
    expect(totalOf(resumed, 'later')).toBe(7);
    expect(resumed.result().views.view.reduce((s, r) => s + (r.n as number), 0)).toBe(402);
  });

  it('refuse wrong values per field and append nothing; refuse a non-source and an ended job', async () => {
    const c = new LocalCluster(planOrThrow(doc(1)), { checkpointIntervalMs: 20, batchSize: 64 });
    await c.start();
    const bad = c.inject('src', { user: 'x', amount: '1.5', ts: '' });
    expect(bad).toEqual({ ok: false, errors: [{ field: 'amount', code: 'integer', got: '1.5' }, { field: 'ts', code: 'required', got: '' }] });
    expect(() => c.inject('agg', {})).toThrow(/not a source/);
    expect((await c.run()).views.view.reduce((s, r) => s + (r.n as number), 0)).toBe(400);
    expect(() => c.inject('src', { user: 'x', amount: '1', ts: '1' })).toThrow(/finished/);
  });
});

describe('InjectionLog.adopt', () => {
  it('takes the unread entries a checkpoint carried at their positions, and leaves a log that has them alone', () => {
    const log = new InjectionLog();
    const pending = [{ value: { a: 3 } }, { value: { a: 4 } }];
    log.adopt('s', 2, pending);
    expect(log.of('s').length).toBe(4);
    expect(log.of('s').slice(2)).toEqual(pending);
    log.adopt('s', 2, pending);
    expect(log.of('s').length).toBe(4);
    expect(log.append('s', { a: 5 })).toBe(5);
  });
});

describe('parseInjectValues', () => {
  it('types each column, takes ISO or epoch-ms timestamps, leaves empty fields null, and names every wrong field', () => {
    const params = { schema: { s: 'string', n: 'number', i: 'integer', b: 'boolean', t: 'timestamp' } };
    expect(parseInjectValues(params, { s: ' hi ', n: '2.5', i: '-3', b: 'true', t: '1970-01-01T00:00:01Z' })).toEqual({ ok: true, row: { s: 'hi', n: 2.5, i: -3, b: true, t: 1000 } });
    expect(parseInjectValues(params, {})).toEqual({ ok: true, row: { s: null, n: null, i: null, b: null, t: null } });
    const r = parseInjectValues(params, { n: 'abc', i: '1e400', b: 'yes', t: 'soon', zz: '1' });
    expect(r.ok ? [] : r.errors.map((e) => `${e.field}:${e.code}`)).toEqual(['zz:unknownField', 'n:number', 'i:integer', 'b:boolean', 't:timestamp']);
  });
});
