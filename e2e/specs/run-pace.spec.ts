// What the run's pace figures mean: the status's records per second is the pace the Speed setting
// asks for, counted as records read from the sources (a source feeding two edges counts once),
// and the coffee-shop filter passes its drinks from the first seconds of a run.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { openExample } from './designer-helpers.spec.ts';

const status = (page: Page) => page.getByRole('status', { name: 'Run status' });
const num = (s: string | null | undefined): number => Number((s ?? '').replace(/[,\s]/g, ''));

/** The status's records-per-second figure, once it has settled near `speed` (or the last one read). */
async function settledRate(t: TestContext, speed: number): Promise<number> {
  let rate = 0;
  const deadline = Date.now() + 12_000;
  while (Date.now() < deadline) {
    await t.page.waitForTimeout(500);
    rate = num(/records read · ([\d,]+)\/s/.exec((await status(t.page).textContent()) ?? '')?.[1]);
    if (Math.abs(rate - speed) <= speed * 0.2) return rate;
  }
  return rate;
}

test('run pace: the status rate is the Speed setting, in records read, for a source feeding two edges', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'camera');
  const speed = page.getByRole('combobox', { name: 'Speed' });
  t.expect(/records read from the sources per second/i.test((await speed.locator('xpath=ancestor::label').getAttribute('title')) ?? ''), 'the Speed control says what it paces');
  for (const [label, value] of [['10 / s', 10], ['50 / s', 50]] as const) {
    await speed.selectOption({ label });
    if (value === 10) await page.getByRole('button', { name: 'Run', exact: true }).click();
    const rate = await settledRate(t, value);
    t.expect(Math.abs(rate - value) <= value * 0.2, `Speed ${label}: the status says ${rate}/s (${await status(page).textContent()})`);
  }
  // The figure is explained where it is shown, apart from a generator's event-time rate.
  const title = (await status(page).getAttribute('title')) ?? '';
  t.expect(/Speed setting/.test(title) && /ratePerSec is event time/.test(title), `the status explains its rate: ${title}`);
  // Records read, as the source node counts them: its two edges do not double the count.
  await page.getByRole('button', { name: 'Pause' }).click();
  await t.expectText(status(page), /Paused/);
  await page.waitForTimeout(300);
  const read = num(/([\d,]+) records read/.exec((await status(page).textContent()) ?? '')?.[1]);
  const out = num(/out ([\d,]+)/.exec((await page.getByLabel('Metrics of camera').textContent()) ?? '')?.[1]);
  t.expect(read > 0 && out === read, `the status read ${read} records, the camera says out ${out}`);
  await t.screenshot('run-pace-50');
}, { timeoutMs: 90_000 });

test('run pace: the coffee-shop filter passes drinks of $3.50 or more from the first seconds of a run', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'big_orders');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.waitFor('60 records read', async () => num(/([\d,]+) records read/.exec((await status(page).textContent()) ?? '')?.[1]) >= 60, 20_000);
  await page.getByRole('button', { name: 'Pause' }).click();
  await t.expectText(status(page), /Paused/);
  await page.waitForTimeout(300);
  const passed = num(/out ([\d,]+)/.exec((await page.getByLabel('Metrics of big_orders').textContent()) ?? '')?.[1]);
  const logged = num(/in ([\d,]+)/.exec((await page.getByLabel('Metrics of big_log').textContent()) ?? '')?.[1]);
  t.expect(passed > 0, `after ${await status(page).textContent()} the filter has passed ${passed} drinks`);
  t.expect(logged === passed, `the filter passed ${passed}, the log sink took in ${logged}`);
  // Each row in the log is an order of $3.50 or more (the view shows what the last checkpoint committed).
  await page.getByRole('tab', { name: 'Results', exact: true }).click();
  await page.getByRole('tablist', { name: 'Sinks' }).getByRole('tab', { name: 'big_log' }).click();
  const table = page.getByRole('table', { name: /big_log/ });
  await t.expectVisible(table);
  const amounts = await table.evaluate((el) => {
    const rows = [...el.querySelectorAll('[role="row"]')];
    const at = [...rows[0].querySelectorAll('[role="columnheader"]')].map((h) => (h.textContent ?? '').trim()).indexOf('amount');
    return rows.slice(1).map((r) => (r.children[at]?.textContent ?? '').trim());
  });
  t.expect(amounts.length > 0 && amounts.length <= logged && amounts.every((a) => Number(a) >= 3.5), `the log holds drinks of $3.50 or more: ${amounts.join(', ')}`);
  await t.screenshot('run-pace-coffee-filter');
}, { timeoutMs: 60_000 });
