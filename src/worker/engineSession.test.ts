import { describe, expect, it } from 'vitest';
import { EngineSession } from './engineSession.ts';
import type { RunSnapshot } from './protocol.ts';
import { STARTER_EXAMPLE } from '../ui/projects/starterExample.ts';

function session() {
  const s = new EngineSession();
  const snaps: RunSnapshot[] = [];
  s.onSnapshot((x) => snaps.push(x));
  const until = (pred: (x: RunSnapshot) => boolean) =>
    new Promise<RunSnapshot>((resolve, reject) => {
      const t0 = Date.now();
      const poll = () => {
        const hit = snaps.find(pred);
        if (hit) return resolve(hit);
        if (Date.now() - t0 > 10_000) return reject(new Error(`no snapshot matched; last: ${JSON.stringify(snaps.at(-1)?.status)}`));
        setTimeout(poll, 10);
      };
      poll();
    });
  return { s, snaps, until };
}

describe('EngineSession', () => {
  it('runs a pipeline to the end and samples the sink table', async () => {
    const { s, until } = session();
    expect(s.load(STARTER_EXAMPLE, { speed: null, checkpointIntervalMs: null })).toEqual({ ok: true, sinks: ['view'] });
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.records).toBe(5);
    expect(done.sinks.view.total).toBe(3);
    expect(done.sinks.view.columns).toEqual(['customer', 'orders', 'total']);
    expect(done.log.some((l) => /job finished/.test(l.message))).toBe(true);
  });

  it('steps one source record at a time and paces by records per second', async () => {
    const { s, snaps, until } = session();
    s.load(STARTER_EXAMPLE, { speed: 40, checkpointIntervalMs: null });
    s.step();
    expect(snaps.at(-1)!.records).toBe(1);
    expect(snaps.at(-1)!.status).toBe('paused');
    const t0 = Date.now();
    s.run();
    await until((x) => x.status === 'finished');
    expect(Date.now() - t0).toBeGreaterThan(50); // 4 more records at 40/s take about 100 ms
  });

  it('refuses a pipeline with problems and says how many', () => {
    const { s } = session();
    const r = s.load({ ...STARTER_EXAMPLE, edges: [] }, { speed: null, checkpointIntervalMs: null });
    expect(r.ok).toBe(false);
  });

  it('sends only the requested window of a sink table', async () => {
    const { s, until } = session();
    s.load(STARTER_EXAMPLE, { speed: null, checkpointIntervalMs: null });
    s.setSinkWindow('view', 1, 1);
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.sinks.view).toMatchObject({ total: 3, offset: 1 });
    expect(done.sinks.view.rows).toEqual([{ customer: 'bob', orders: 1, total: 12.5 }]);
  });
});
