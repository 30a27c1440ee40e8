// User code that allocates without end, or hands back more than the memory limit: the run ends
// with an error on the node, the tab does not crash, and the page stays usable, in the run in one
// worker and on Web Workers alike. A browser gives a Web Worker no heap limit, and Chromium cannot
// measure the heap of a worker that is busy in a loop (see docs/runtime.md), so an allocation
// that never ends is stopped by the time limit, before it reaches V8's heap limit (which crashes
// the whole tab); what code returns is bounded by the memory limit.
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import type { Page } from 'playwright-core';
import { openRunSettings } from './designer-helpers.spec.ts';
import { expectResponsive, mapPipeline, onWebWorkers } from './designer-code-watchdog.spec.ts';

const BOMB = '(r) => {\n  const a: unknown[] = [];\n  while (true) a.push(new Array(1e6).fill(r));\n  return r;\n}';
const status = (page: Page) => page.getByRole('status', { name: 'Run status' });

async function runUntilFailed(t: TestContext, page: Page, expected: RegExp): Promise<number> {
  let crashed = false;
  page.on('crash', () => (crashed = true));
  const started = Date.now();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), expected, 60_000);
  const ms = Date.now() - started;
  t.expect(!crashed, 'the tab did not crash');
  await t.expectVisible(page.locator('.react-flow__node[data-id="map_1"] .op-node.has-failed'));
  await page.getByRole('tab', { name: 'Log' }).click();
  const text = (await page.getByRole('log', { name: 'Log' }).textContent()) ?? '';
  t.expect(!/restart/i.test(text), `the job was not restarted, but the log says: ${text}`);
  await expectResponsive(t, page, 'map_1');
  return ms;
}

for (const where of ['one worker', 'Web Workers'] as const) {
  const workers = where === 'Web Workers';
  test(`designer code memory: an allocation that never ends in a map (${where}) is stopped with an error on the node; the tab does not crash`, async (t) => {
    const page = await mapPipeline(t, BOMB);
    if (workers) await onWebWorkers(page);
    const ms = await runUntilFailed(t, page, /Failed: node "map_1": map code ran longer than the 2000 ms limit per batch/);
    console.log(`    the allocation (${where}) was stopped ${ms} ms after Run`);
    await t.screenshot(`designer-udf-bomb-${workers ? 'workers' : 'one-worker'}`);
  }, { timeoutMs: 150_000 });

  test(`designer code memory: a map that returns more than the memory limit (${where}) fails the run on the node, naming the limit`, async (t) => {
    const page = await mapPipeline(t, "(row) => ({ ...row, pad: 'x'.repeat(20 * 2 ** 20) })");
    if (workers) await onWebWorkers(page);
    await openRunSettings(page);
    await page.getByRole('combobox', { name: 'Code memory', exact: true }).selectOption({ label: '16 MB' });
    if (workers) await t.screenshot('designer-run-settings-code-limits');
    await runUntilFailed(t, page, /Failed: node "map_1": map code returned 20\.\d MB for one record, more than the 16 MB memory limit/);
    await t.screenshot(`designer-udf-memory-${workers ? 'workers' : 'one-worker'}`);
  }, { timeoutMs: 150_000 });
}
