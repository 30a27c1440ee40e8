// The browser-only parts of the benchmark harness at smoke sizes, so that they never rot between
// `npm run bench` runs: the bench page builds, is cross-origin isolated, and its cross-worker,
// latency (a whole checkpointed BrowserJob, its pacer on a worker of its own) and IndexedDB
// checkpoint suites each return every figure as a finite number (or, for latency, "not sustained"
// and "n/a: no preview output"). Targets are never asserted here; `npm run bench` reports them.
import { serveBenchPage } from '../../bench/lib/probePage.ts';
import { SMOKE } from '../../bench/sizes.ts';
import { isLatencyText } from '../../bench/lib/latencyText.ts';
import { test, type TestContext } from '../harness.ts';

function finite(t: TestContext, suite: string, figs: Record<string, number | string | null>): void {
  const names = Object.keys(figs);
  t.expect(names.length > 0, `${suite}: no figures`);
  for (const [k, v] of Object.entries(figs)) t.expect((typeof v === 'number' && Number.isFinite(v)) || isLatencyText(v), `${suite}: ${k} is ${v}`);
}

test('bench-page: cross-worker, latency and checkpoint suites run in Chromium at smoke sizes', async (t) => {
  const served = await serveBenchPage();
  try {
    t.allowOrigin(served.url);
    await t.page.goto(served.url);
    await t.page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    t.expect(await t.page.evaluate(() => window.weirBench.isolated()), 'the bench page is not cross-origin isolated (COOP/COEP headers)');
    finite(t, 'crossWorker', await t.page.evaluate(([s, p]) => window.weirBench.crossWorker(s, p), [SMOKE.crossWorker, SMOKE.plan] as const));
    const latency = await t.page.evaluate(([s, p]) => window.weirBench.latency(s, p), [SMOKE.latency, SMOKE.plan] as const);
    finite(t, 'latency', latency);
    t.expect((latency['latency.checkpointsPerRun'] as number) >= 1, `latency: no checkpoint completed during a run`);
    t.expect(typeof latency['latency.sustainedEventsPerSec'] === 'number', 'latency: no sustained rate');
    finite(t, 'checkpoint', await t.page.evaluate((req) => window.weirBench.runSuite(req), { suite: 'checkpoint', plan: SMOKE.plan, args: { keys: SMOKE.checkpointKeys } }));
  } finally {
    await served.close();
  }
}, { timeoutMs: 180_000 });
