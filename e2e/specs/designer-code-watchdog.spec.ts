// User code that never returns: the watchdog stops it, names the node, and the page stays usable,
// in the run in one worker and on Web Workers alike.
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import type { Page } from 'playwright-core';
import { connect, dragKind, openBlank, openRunSettings, replaceMonacoText, select } from './designer-helpers.spec.ts';

/** Inline rows → Map with `code` → Materialized view, on a blank canvas. */
export async function mapPipeline(t: TestContext, code: string): Promise<Page> {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 120, 140);
  await dragKind(t, 'Map', 400, 140);
  await dragKind(t, 'Materialized view', 660, 140);
  await connect(t, ['inlineSource_1', 'out'], ['map_1', 'in']);
  await connect(t, ['map_1', 'out'], ['viewSink_1', 'in']);
  const inspector = await select(t, 'map_1');
  await replaceMonacoText(page, 'code', code);
  await t.expectText(inspector.getByRole('status', { name: 'code diagnostics' }), 'No type errors', 30_000);
  return page;
}

/** Parallelism 2, and "Run in: Web Workers". */
export async function onWebWorkers(page: Page): Promise<void> {
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('2');
  await page.getByRole('combobox', { name: 'Run in', exact: true }).selectOption({ label: 'Web Workers' });
}

/** The page's thread answers at once: a frame, and a click on the canvas that selects a node. */
export async function expectResponsive(t: TestContext, page: Page, nodeId: string): Promise<void> {
  const started = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  t.expect(Date.now() - started < 1000, `a frame took ${Date.now() - started} ms`);
  await page.locator('.react-flow__pane').click({ position: { x: 600, y: 420 } });
  const clicked = Date.now();
  await select(t, nodeId);
  t.expect(Date.now() - clicked < 3000, `selecting a node took ${Date.now() - clicked} ms`);
}

test('designer code: while (true) {} in a map fails the run on that node; the page stays responsive', async (t) => {
  const page = await mapPipeline(t, '(row) => { while (true) {} return row; }');
  const diagnostics = page.getByRole('status', { name: 'code diagnostics' });

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  // The default limit is 2000 ms per batch; the watchdog reports soon after.
  await t.expectText(status, /Failed: node "map_1": map code ran longer than the 2000 ms limit per batch/, 15_000);
  // The failure stays on screen: the stopped worker is gone, and nothing may start a fresh one
  // that reports "Not running" over it (the panels' requests once did, within 0.2 s).
  for (const started = Date.now(); Date.now() - started < 1500; await page.waitForTimeout(50)) {
    const now = (await status.textContent()) ?? '';
    t.expect(/^Failed: node "map_1"/.test(now), `the failure stayed on screen, but the status now reads "${now}"`);
  }
  await t.expectVisible(page.locator('.react-flow__node[data-id="map_1"] .op-node.has-failed'));
  await page.getByRole('tab', { name: 'Log' }).click();
  await t.expectText(page.getByRole('log', { name: 'Log' }), /node "map_1": map code ran longer than/);
  // The code marks the line it runs, in memory the page shares with the worker it stopped.
  await t.expectText(page.getByRole('log', { name: 'Log' }), /in line 1 of the code: \(row\) => \{ while \(true\) \{\} return row; \}/);

  // Responsive: the page's thread answers at once, and the fixed code runs on a fresh worker.
  await expectResponsive(t, page, 'map_1');
  await t.screenshot('designer-udf-watchdog');
  await replaceMonacoText(page, 'code', '(row) => ({ ...row, double: row.id * 2 })');
  await t.expectText(diagnostics, 'No type errors', 30_000);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished/, 20_000);
}, { timeoutMs: 120_000 });

test('designer code: while (true) {} in a map on Web Workers fails the run on that node, without restarts; the page stays responsive', async (t) => {
  const page = await mapPipeline(t, '(row) => {\n  while (true) {}\n  return row;\n}');
  await onWebWorkers(page);
  const started = Date.now();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  await t.expectText(status, /Failed: node "map_1": map code ran longer than the 2000 ms limit per batch/, 30_000);
  console.log(`    the loop was reported ${Date.now() - started} ms after Run`);
  await t.expectVisible(page.locator('.react-flow__node[data-id="map_1"] .op-node.has-failed'));
  await page.getByRole('tab', { name: 'Log' }).click();
  const log = page.getByRole('log', { name: 'Log' });
  await t.expectText(log, /node "map_1": map code ran longer than the 2000 ms limit per batch \(a batch of \d+, first record \{.*\}\), in line 2 of the code: while \(true\) \{\}/);
  // A deterministic fault in code is not retried: no restart, no "restart attempts exhausted".
  const text = (await log.textContent()) ?? '';
  t.expect(!/restart/i.test(text), `the job was not restarted, but the log says: ${text}`);
  await expectResponsive(t, page, 'map_1');
  await t.screenshot('designer-udf-watchdog-workers');

  // The fixed code runs to its end on fresh workers.
  await replaceMonacoText(page, 'code', '(row) => ({ ...row, double: row.id * 2 })');
  await t.expectText(page.getByRole('status', { name: 'code diagnostics' }), 'No type errors', 30_000);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished .*2 Web Workers/, 30_000);
}, { timeoutMs: 150_000 });
