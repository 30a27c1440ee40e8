// The multi-worker durable runtime in real Chromium: BrowserJob on real Web Workers with the
// IndexedDB state backend and IndexedDB checkpoints, driven through the runtime lab page
// (e2e/lab: built apart from the app by serveLab.ts, `window.__weirLab`). Kills are real
// worker.terminate() calls. Every final view is compared with the plain in-process run's
// view of the same pipeline, and with the per-key sequence-number invariant (each key's counter
// advanced by exactly 1 per record: no gap, no duplicate).
import type { Page } from 'playwright-core';
import { test, type TestContext } from '../harness.ts';
import { runPipeline } from '../../src/testing/runPipeline.ts';
import { exactlyOnceDoc, sequenceViolations } from '../../src/testing/exactlyOncePipelines.ts';
import type { LabOptions, LabResult } from '../lab/lab.ts';
import { openLab } from '../lab/serveLab.ts';

const N = 3000;
const KEYS = 37;
const reference = runPipeline(exactlyOnceDoc(1, { n: N, keys: KEYS })).views.view;
const restart = { type: 'fixedDelay', delayMs: 50, maxAttempts: 8 } as const;
const durable = (jobId: string, extra: LabOptions = {}): LabOptions => ({ jobId, state: 'indexeddb', checkpointIntervalMs: 200, batchSize: 50, restart, ...extra });

const run = (page: Page, doc: unknown, opts: LabOptions) => page.evaluate(([d, o]) => window.__weirLab.run(d, o), [doc, opts] as const);
const start = (page: Page, doc: unknown, opts: LabOptions) => page.evaluate(([d, o]) => window.__weirLab.start(d, o), [doc, opts] as const);
const wait = (page: Page) => page.evaluate(() => window.__weirLab.wait());

function expectExactlyOnce(t: TestContext, res: LabResult, what: string): void {
  t.expect(res.status === 'finished', `${what}: the job ${res.status}: ${res.reason}\n${res.log.join('\n')}`);
  const view = res.views.view;
  const bad = sequenceViolations(view);
  t.expect(bad.length === 0, `${what}: per-key sequence numbers broken:\n  ${bad.slice(0, 10).join('\n  ')}`);
  t.expect(JSON.stringify(view) === JSON.stringify(reference), `${what}: the final view differs from the failure-free run:\n  got ${JSON.stringify(view.slice(0, 3))}…\n  want ${JSON.stringify(reference.slice(0, 3))}…`);
}

/** Waits until the running job has completed `n` checkpoints; returns their ids. */
async function completedCheckpoints(t: TestContext, page: Page, n: number): Promise<number[]> {
  return t.waitFor(`${n} completed checkpoint(s)`, async () => {
    const s = await page.evaluate(() => window.__weirLab.status());
    t.expect(s.running, `the job ended before ${n} checkpoint(s) completed:\n${s.log.join('\n')}`);
    return s.completed.length >= n ? s.completed : null;
  }, 30_000) as Promise<number[]>;
}

const trials = [
  { seed: 11, parallelism: 2, kills: 2 },
  { seed: 23, parallelism: 3, kills: 2 },
  { seed: 37, parallelism: 3, kills: 3 },
];

for (const { seed, parallelism, kills } of trials) {
  test(`runtime-browser: chaos trial seed ${seed}, parallelism ${parallelism}, ${kills} real worker kills`, async (t) => {
    const page = await openLab(t);
    const doc = exactlyOnceDoc(parallelism, { n: N, keys: KEYS, spinUs: 300 });
    const res = await run(page, doc, durable(`chaos-${seed}`, { chaos: { kills, seed } }));
    expectExactlyOnce(t, res, `seed ${seed}`);
    t.expect(res.restarts === kills, `seed ${seed}: expected ${kills} restarts, got ${res.restarts}:\n${res.log.join('\n')}`);
    for (const r of res.recoveries) t.expect(/was killed \(worker \d+ terminated\)/.test(r.reason), `seed ${seed}: unexpected failure: ${r.reason}`);
    t.expect(res.checkpoints.some((c) => c.status === 'completed'), `seed ${seed}: no checkpoint completed`);
    console.log(`    seed ${seed}: ${res.restarts} restarts restored from ${JSON.stringify(res.recoveries.map((r) => r.restoredFrom))}, recovery ${res.recoveries.map((r) => r.recoveryMs.toFixed(0)).join('/')} ms, ${res.elapsedMs.toFixed(0)} ms in all`);
  }, { timeoutMs: 120_000 });
}

test('runtime-browser: a page reload in the middle of a run resumes from IndexedDB with the same result', async (t) => {
  let page = await openLab(t);
  const doc = exactlyOnceDoc(2, { n: N, keys: KEYS, spinUs: 600 });
  await start(page, doc, durable('reload'));
  const before = await completedCheckpoints(t, page, 1);
  await page.reload();
  page = await openLab(t);
  const resumable = await page.evaluate(() => window.__weirLab.resumable('reload'));
  t.expect(resumable !== null && resumable >= before.at(-1)!, `after the reload, BrowserJob.resumable should offer checkpoint ≥ ${before.at(-1)}, got ${resumable}`);
  const res = await run(page, doc, durable('reload', { resume: true }));
  expectExactlyOnce(t, res, 'resumed after reload');
  t.expect(res.log.some((l) => l.includes(`restoring from checkpoint ${resumable}`)), `the resumed job should restore checkpoint ${resumable}:\n${res.log.join('\n')}`);
  t.expect(res.checkpoints[0].checkpointId > resumable!, `the resumed job's checkpoints should continue after ${resumable}, first was ${res.checkpoints[0].checkpointId}`);
}, { timeoutMs: 120_000 });

test('runtime-browser: a checkpoint torn by a kill during its write stays invisible and the previous one restores', async (t) => {
  const page = await openLab(t);
  const doc = exactlyOnceDoc(2, { n: N, keys: KEYS, spinUs: 600 });
  await start(page, doc, durable('torn'));
  await completedCheckpoints(t, page, 1);
  await page.evaluate(() => window.__weirLab.tearNextCheckpoint('agg#1'));
  const res = await wait(page);
  expectExactlyOnce(t, res, 'after the torn checkpoint');
  const torn = res.torn;
  t.expect(torn !== null, 'no checkpoint was torn: the job ended before the next checkpoint');
  t.expect(torn!.latestAfterKill !== null && torn!.latestAfterKill < torn!.checkpointId, `checkpoint ${torn!.checkpointId} became visible although it was torn (latest committed right after the kill: ${torn!.latestAfterKill})`);
  const first = res.checkpoints.find((c) => c.checkpointId === torn!.checkpointId);
  t.expect(first?.status === 'aborted', `torn checkpoint ${torn!.checkpointId} should be aborted, was ${JSON.stringify(first)}`);
  t.expect(res.restarts === 1 && res.recoveries[0].restoredFrom === torn!.latestAfterKill, `the restart should restore checkpoint ${torn!.latestAfterKill}, got ${JSON.stringify(res.recoveries)}`);
}, { timeoutMs: 120_000 });

test('runtime-browser: a real IndexedDB quota failure stops the job with a clear message and keeps the last good checkpoint', async (t) => {
  const page = await openLab(t);
  const bucket = 'quota-job';
  // Slow enough that the job is still running when the ballast has filled the bucket (which takes
  // a few seconds on a busy machine): a job that finishes first never meets the quota and proves nothing.
  const doc = exactlyOnceDoc(2, { n: N, keys: KEYS, spinUs: 10_000 });
  // The job keeps its state and checkpoints in a Storage Bucket with a quota of its own.
  await start(page, doc, durable('quota', { storageBucket: bucket, bucketQuotaBytes: 16 << 20 }));
  await completedCheckpoints(t, page, 1);
  // Ballast fills the bucket until Chromium refuses writes: the job's next write meets a real QuotaExceededError.
  let ballast = await page.evaluate((b) => window.__weirLab.fillBucket(b), bucket);
  // The job may already have met the quota while the ballast grew; if not, its next checkpoint
  // does. Chromium's usage figure lags writes, so a filled bucket can still take one more
  // checkpoint: top the ballast up and ask again until the job stops.
  for (let i = 0; i < 20 && (await page.evaluate(() => window.__weirLab.status())).running; i++) {
    await page.evaluate(() => window.__weirLab.triggerCheckpoint());
    await page.waitForTimeout(250);
    ballast += await page.evaluate((b) => window.__weirLab.fillBucket(b), bucket);
  }
  const res = await wait(page);
  t.expect(res.status === 'failed', `the job should stop on the quota error (ballast ${ballast} bytes), it ${res.status}:\n${res.log.join('\n')}`);
  const m = /^checkpoint (\d+) failed: .*storage is full.* The job stopped; checkpoint (\d+) is the last good one\.$/.exec(res.reason ?? '');
  t.expect(m, `unclear failure message: ${res.reason}`);
  t.expect(res.restarts === 0, `a full disk is not retried, but the job restarted ${res.restarts} time(s)`);
  const lastGood = Number(m![2]);
  const listed = await page.evaluate((b) => window.__weirLab.committed('quota', b), bucket);
  t.expect(listed.includes(lastGood), `checkpoint ${lastGood} should still be listed in IndexedDB, found ${JSON.stringify(listed)}`);
  // With the space back, the last good checkpoint restores and the job ends right.
  await page.evaluate((b) => window.__weirLab.freeBucket(b), bucket);
  const resumed = await run(page, doc, durable('quota', { storageBucket: bucket, resume: true }));
  expectExactlyOnce(t, resumed, 'resumed after the quota failure');
  t.expect(resumed.log.some((l) => l.includes(`restoring from checkpoint ${lastGood}`)), `the resume should restore checkpoint ${lastGood}:\n${resumed.log.join('\n')}`);
  console.log(`    quota: ${res.reason}`);
}, { timeoutMs: 120_000, allowConsoleErrors: [/quota|QuotaExceeded/i] });

// The latency job that once published fewer view changes than records on a busy machine: here on
// Web Workers beside a CPU hog of about 1.5 cores, with a heartbeat gap under the timeout and one
// over it (a restart). Every record must make exactly one +I/+U, and the restart must be logged.
for (const interval of [100, 20]) {
  test(`runtime-browser: under a CPU hog and heartbeat jitter the latency job publishes one change per record (checkpoints every ${interval} ms)`, async (t) => {
    const page = await openLab(t);
    const r = await page.evaluate((o) => window.__weirLab.loadTrial(o), { records: 20_000, keys: 500, checkpointIntervalMs: interval, run: interval });
    t.expect(r.problems.length === 0, `${r.problems.join('; ')}\n${r.log.join('\n')}`);
    console.log(`    ${r.changes} changes, ${r.restarts} restart(s)`);
  }, { timeoutMs: 120_000 });
}
