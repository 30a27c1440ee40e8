// Stepping back in Chromium against the real engine worker: the State table three records back
// is exactly the one seen on the way forward (text compared; both screenshots kept in
// e2e/artifacts/screenshots as step-back-*.png), and the history scrubber works from the keyboard.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { importDoc, node } from './designer-helpers.spec.ts';

const pos = (x: number, y: number) => ({ x, y });
const CITIES = ['Paris', 'Lyon', 'Paris', 'Nice', 'Lyon', 'Paris', 'Nice', 'Lille', 'Paris', 'Lyon'];

/** Revenue and orders per city: every record changes one key's state. */
const DOC = {
  format: 'weir/pipeline',
  version: 1,
  name: 'revenue per city, step back (e2e)',
  nodes: [
    { id: 'sales', kind: 'inlineSource', params: { rows: CITIES.map((city, i) => ({ city, amount: (i + 1) * 5, ts: (i + 1) * 1000 })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } }, position: pos(0, 100) },
    { id: 'per_city', kind: 'aggregate', params: { groupBy: ['city'], aggregates: [{ fn: 'count', as: 'orders' }, { fn: 'sum', field: 'amount', as: 'revenue' }] }, position: pos(300, 100) },
    { id: 'revenue', kind: 'viewSink', params: { primaryKey: ['city'] }, position: pos(600, 100) },
  ],
  edges: [
    { id: 'sales-per_city', from: { node: 'sales', port: 'out' }, to: { node: 'per_city', port: 'in' } },
    { id: 'per_city-revenue', from: { node: 'per_city', port: 'out' }, to: { node: 'revenue', port: 'in' } },
  ],
};

const status = (page: Page) => page.getByRole('status', { name: 'Run status' });
const records = async (page: Page) => Number(/(\d+) record/.exec((await status(page).textContent()) ?? '')?.[1] ?? 0);
const stateTable = (page: Page) => page.getByRole('table', { name: 'State of per_city' });
/** The table's rows as text, one line per row (the rendered cells, not the raw state). */
const tableText = async (page: Page) => (await stateTable(page).locator('[role="row"]').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim()).join('\n');

async function stepTo(t: TestContext, button: 'Step' | 'Step back', n: number): Promise<void> {
  const { page } = t;
  const before = await records(page);
  await page.getByRole('button', { name: button, exact: true }).click();
  await t.waitFor(`${n} records read after ${button}`, async () => (await records(page)) === n || null);
  t.expect(button === 'Step' ? n === before + 1 : n === before - 1, `${button} moved from ${before} to ${n} records`);
}

/** The table text once it shows `n` records' worth of state and has stopped changing. */
async function settledTable(t: TestContext, what: string): Promise<string> {
  let last = '';
  // waitFor returns the first truthy probe: the settled text.
  return (await t.waitFor<string | null>(`the State table to settle ${what}`, async () => {
    await t.page.waitForTimeout(200);
    const now = await tableText(t.page);
    const same = now === last && now.length > 0;
    last = now;
    return same ? now : null;
  })) as string;
}

test('step back: three records back, the State table is the one seen on the way forward', async (t) => {
  const { page } = t;
  await importDoc(t, DOC, 'per_city');
  await node(page, 'per_city').locator('.op-label').click();
  await page.getByRole('tab', { name: 'State', exact: true }).click();
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('record');
  t.expect(await page.getByRole('button', { name: 'Step back', exact: true }).isDisabled(), 'nothing to step back to before the run started');

  for (let n = 1; n <= 4; n++) await stepTo(t, 'Step', n);
  await t.expectVisible(stateTable(page));
  const forward = await settledTable(t, 'at 4 records');
  t.expect(/Nice/.test(forward) && /Lyon/.test(forward), `the state shows the first cities:\n${forward}`);
  await t.screenshot('step-back-forward-4-records');

  for (let n = 5; n <= 7; n++) await stepTo(t, 'Step', n);
  const later = await settledTable(t, 'at 7 records');
  t.expect(later !== forward, 'three more records changed the state');
  await t.screenshot('step-back-forward-7-records');

  for (let n = 6; n >= 4; n--) await stepTo(t, 'Step back', n);
  const back = await settledTable(t, 'after stepping back to 4 records');
  t.expect(back === forward, `three records back the State table is the one seen on the way forward:\n--- forward\n${forward}\n--- back\n${back}`);
  await t.screenshot('step-back-back-to-4-records');

  // The scrubber: End goes to the furthest point reached (7 records), Home to the start.
  const scrubber = page.getByRole('slider', { name: 'Run history' });
  await scrubber.focus();
  await page.keyboard.press('End');
  await t.waitFor('the scrubber to reach the furthest point', async () => (await records(page)) === 7 || null);
  t.expect((await settledTable(t, 'at the end again')) === later, 'the end of the history shows the state seen there');
  const value = await scrubber.getAttribute('aria-valuetext');
  t.expect(/^Step (\d[\d,]*) of \1$/.test(value ?? ''), `the scrubber says where the run is: ${value}`);
  await page.keyboard.press('Home');
  await t.waitFor('the scrubber to reach the start', async () => (await records(page)) === 0 || null);
  await t.expectText(status(page), /Ready/);
  await t.screenshot('step-back-scrubber-start');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await t.expectVisible(page.getByRole('button', { name: '倒退一步', exact: true }));
  await t.expectVisible(page.getByRole('slider', { name: '執行歷程' }));
  await t.screenshot('step-back-zh-TW');
}, { timeoutMs: 120_000 });
