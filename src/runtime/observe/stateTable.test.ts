import { describe, expect, it } from 'vitest';
import { LocalCluster } from '../localCluster.ts';
import { planOrThrow } from '../../testing/runPipeline.ts';
import { ClusterObserver } from './observer.ts';
import { DEFAULT_REQUEST } from './types.ts';
import type { ObserveRequest } from './types.ts';
import { example, joinDoc } from '../../testing/observeDocs.ts';

const req = (r: Partial<ObserveRequest>): ObserveRequest => ({ ...DEFAULT_REQUEST, ...r });

async function finishedSales() {
  const cluster = new LocalCluster(planOrThrow(example('sales-by-store.json')), { batchSize: 16 });
  const obs = new ClusterObserver(cluster);
  // Before start() there are no subtasks yet: a valid frame without a state table.
  expect(obs.frame(req({ node: 'sales' })).state).toBeNull();
  await cluster.start();
  while ((await cluster.step()) === 'running');
  return { cluster, obs };
}

describe('state table', () => {
  it('windows, sorts, searches and pins keys of an aggregate', async () => {
    const { obs } = await finishedSales();
    const all = obs.frame(req({ node: 'sales', stateLimit: 100 })).state!;
    expect(all.total).toBe(8);
    expect(all.rows).toHaveLength(8);
    expect(all.descriptors.length).toBeGreaterThan(0);
    const keys = all.rows.map((r) => r.key as string).sort();

    const desc = obs.frame(req({ node: 'sales', sort: { column: 'key', dir: 'desc' }, stateOffset: 1, stateLimit: 3 })).state!;
    expect(desc.rows.map((r) => r.key)).toEqual([...keys].reverse().slice(1, 4));
    expect(desc.total).toBe(8);
    expect(desc.offset).toBe(1);

    const found = obs.frame(req({ node: 'sales', search: keys[2].toUpperCase() })).state!;
    expect(found.rows.map((r) => r.key)).toEqual([keys[2]]);
    expect(found.total).toBe(1);

    const pinned = obs.frame(req({ node: 'sales', sort: { column: 'key', dir: 'asc' }, pinned: [JSON.stringify(keys[5])], stateLimit: 3 })).state!;
    expect(pinned.rows.map((r) => r.key)).toEqual([keys[5], keys[0], keys[1]]);
    expect(pinned.total).toBe(8);

    const row = all.rows[0];
    expect(row.keyText).toBe(JSON.stringify(row.key));
    expect(row.updatedAt).not.toBeNull();
    expect(Object.keys(row.states).length).toBeGreaterThan(0);
    expect(row.changed).toBe(false);

    const byUpdate = obs.frame(req({ node: 'sales', sort: { column: 'updated', dir: 'desc' } })).state!;
    const times = byUpdate.rows.map((r) => r.updatedAt!);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('flags rows written since the previous frame, and reports TTL remaining on a join with ttlMs', async () => {
    const doc = joinDoc();
    (doc.nodes as { id: string; params: Record<string, unknown> }[]).find((n) => n.id === 'j')!.params.ttlMs = 10_000;
    const cluster = new LocalCluster(planOrThrow(doc), { batchSize: 4 });
    const obs = new ClusterObserver(cluster);
    await cluster.start();
    for (let i = 0; i < 40; i++) await cluster.step();
    const first = obs.frame(req({ node: 'j' })).state!;
    expect(first.rows.length).toBeGreaterThan(0);
    expect(first.rows.every((r) => !r.changed)).toBe(true);
    const ttl = Object.values(first.rows[0].ttlMs)[0]!;
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
    const quiet = obs.frame(req({ node: 'j' })).state!;
    expect(quiet.rows.some((r) => r.changed)).toBe(false);
    for (let i = 0; i < 40; i++) await cluster.step();
    const later = obs.frame(req({ node: 'j', subtask: 0 })).state!;
    expect(later.rows.some((r) => r.changed)).toBe(true);
    expect(later.rows.every((r) => r.subtask === 0)).toBe(true);
  });
});
