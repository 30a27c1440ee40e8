import { describe, expect, it } from 'vitest';
import type { Element } from '../../core/types.ts';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exactlyOnceDoc, sequenceViolations } from '../../testing/exactlyOncePipelines.ts';
import type { PreviewChange } from './commitWire.ts';

const spawn = inProcessSpawn();
const fast = { spawn, heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 5 } } as const;

describe('the preview stream', () => {
  it('shows every sink change before its checkpoint commits it, and stays out of the committed output', async () => {
    const doc = exactlyOnceDoc(2, { n: 4000 });
    const previewed = new Map<string, Element[]>();
    const committed = new Map<string, number>();
    const early: string[] = [];
    const res = await new JobManager(doc, {
      ...fast,
      checkpointIntervalMs: 20,
      onPreview: (sinkId, c: PreviewChange) => {
        expect(sinkId).toBe('view');
        expect(c.attempt).toBe(1);
        const list = previewed.get(c.origin) ?? [];
        list.push(...c.els);
        previewed.set(c.origin, list);
      },
      onPublish: (_sinkId, c) => {
        const n = (committed.get(c.origin) ?? 0) + c.els.length;
        committed.set(c.origin, n);
        // Exactly-once output never runs ahead of what the preview already showed.
        if ((previewed.get(c.origin)?.length ?? 0) < n) early.push(`${c.origin}@${c.epoch}`);
      },
    }).run();
    expect(res.status, res.reason).toBe('finished');
    expect(early).toEqual([]);
    expect(res.checkpoints.filter((c) => c.status === 'completed').length).toBeGreaterThan(1);
    // Without a failure the preview is the committed changelog, change for change, per subtask.
    const sorted = (els: readonly Element[]) => els.map((e) => JSON.stringify(e)).sort();
    expect(sorted([...previewed.values()].flat())).toEqual(sorted(res.changelogs.view));
    const plain = await new JobManager(doc, { ...fast, checkpointIntervalMs: 20 }).run();
    expect(res.changelogs.view.length).toBe(plain.changelogs.view.length);
    expect(res.views).toEqual(plain.views);
  });

  it('tags changes with the checkpoint they follow and announces a reset when a failed attempt is restored', async () => {
    const doc = exactlyOnceDoc(2, { n: 6000, spinUs: 20 });
    const resets: [number, number | null][] = [];
    const sinces: number[] = [];
    const jm = new JobManager(doc, {
      ...fast,
      checkpointIntervalMs: 20,
      onPreview: (_s, c) => {
        if (c.attempt === 2) sinces.push(c.since);
      },
      onPreviewReset: (attempt, from) => resets.push([attempt, from]),
    });
    const run = jm.run();
    for (let i = 0; i < 3000 && !jm.checkpointHistory().some((c) => c.status === 'completed'); i++) await new Promise((r) => setTimeout(r, 2));
    expect(jm.killSubtask('view#1')).toBe(true);
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(resets.length).toBe(1);
    const [attempt, from] = resets[0];
    expect(attempt).toBe(2);
    expect(from).not.toBeNull();
    // Changes of the restored attempt follow the restored checkpoint or a later one.
    expect(sinces.length).toBeGreaterThan(0);
    expect(Math.min(...sinces)).toBeGreaterThanOrEqual(from!);
    expect(sequenceViolations(res.views.view)).toEqual([]);
    expect(res.views.view).toEqual(runPipeline(exactlyOnceDoc(1, { n: 6000 })).views.view);
  });
});
