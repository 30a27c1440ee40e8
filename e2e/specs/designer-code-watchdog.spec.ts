// User code that never returns: the watchdog stops it, names the node, and the page stays usable.
import { test } from '../harness.ts';
import { connect, dragKind, openBlank, replaceMonacoText, select } from './designer-helpers.spec.ts';

test('designer code: while (true) {} in a map fails the run on that node; the page stays responsive', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 120, 140);
  await dragKind(t, 'Map', 400, 140);
  await dragKind(t, 'Materialized view', 660, 140);
  await connect(t, ['inlineSource_1', 'out'], ['map_1', 'in']);
  await connect(t, ['map_1', 'out'], ['viewSink_1', 'in']);
  const inspector = await select(t, 'map_1');
  const diagnostics = inspector.getByRole('status', { name: 'code diagnostics' });
  await replaceMonacoText(page, 'code', '(row) => { while (true) {} return row; }');
  await t.expectText(diagnostics, 'No type errors', 30_000);

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
  const started = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  t.expect(Date.now() - started < 1000, `a frame took ${Date.now() - started} ms`);
  await t.screenshot('designer-udf-watchdog');
  await select(t, 'map_1');
  await replaceMonacoText(page, 'code', '(row) => ({ ...row, double: row.id * 2 })');
  await t.expectText(diagnostics, 'No type errors', 30_000);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished/, 20_000);
}, { timeoutMs: 120_000 });
