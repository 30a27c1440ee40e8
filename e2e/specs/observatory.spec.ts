// The observatory in Chromium against the real engine worker: join buffers in step mode, window
// panes and late output, barriers and the checkpoint timeline, time travel with a state diff.
// Every panel is saved as a screenshot in light and dark; look at them (e2e/artifacts/screenshots).
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { importDoc, node, openExample } from './designer-helpers.spec.ts';

const pos = (x: number, y: number) => ({ x, y });

/** Orders wait in the left buffer; the payment of o1 comes after eight payments for other orders. */
const JOIN_DOC = {
  format: 'weir/pipeline',
  version: 1,
  name: 'orders left join payments (e2e)',
  nodes: [
    { id: 'orders', kind: 'inlineSource', params: { rows: [1, 2, 3, 4].map((i) => ({ order_id: `o${i}`, amount: i * 10, ts: i * 1000 })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } }, position: pos(0, 0) },
    { id: 'payments', kind: 'inlineSource', params: { rows: ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'o1'].map((o, i) => ({ order_id: o, paid: 10, ts: 1500 + i * 1000 })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } }, position: pos(0, 220) },
    { id: 'paid', kind: 'join', params: { type: 'left', leftKey: ['order_id'], rightKey: ['order_id'] }, position: pos(300, 100) },
    { id: 'status', kind: 'viewSink', params: { primaryKey: ['order_id'] }, position: pos(600, 100) },
  ],
  edges: [
    { id: 'orders-paid', from: { node: 'orders', port: 'out' }, to: { node: 'paid', port: 'left' } },
    { id: 'payments-paid', from: { node: 'payments', port: 'out' }, to: { node: 'paid', port: 'right' } },
    { id: 'paid-status', from: { node: 'paid', port: 'out' }, to: { node: 'status', port: 'in' } },
  ],
};

/** Ten-second tumbling windows per city; the last row is late once the 12 s row moved the watermark. */
const WINDOW_DOC = {
  format: 'weir/pipeline',
  version: 1,
  name: 'revenue per city (e2e)',
  nodes: [
    {
      id: 'sales',
      kind: 'inlineSource',
      params: {
        rows: [
          { city: 'Paris', amount: 5, ts: 1000 },
          { city: 'Lyon', amount: 7, ts: 2000 },
          { city: 'Paris', amount: 3, ts: 4000 },
          { city: 'Paris', amount: 9, ts: 12000 },
          { city: 'Lyon', amount: 4, ts: 3000 },
        ],
        eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 },
      },
      position: pos(0, 100),
    },
    { id: 'per_city', kind: 'window', params: { type: 'tumble', sizeMs: 10000, groupBy: ['city'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }] }, position: pos(300, 100) },
    { id: 'revenue', kind: 'viewSink', params: {}, position: pos(600, 40) },
    { id: 'late_sales', kind: 'logSink', params: { maxLines: 100 }, position: pos(600, 240) },
  ],
  edges: [
    { id: 'sales-per_city', from: { node: 'sales', port: 'out' }, to: { node: 'per_city', port: 'in' } },
    { id: 'per_city-revenue', from: { node: 'per_city', port: 'out' }, to: { node: 'revenue', port: 'in' } },
    { id: 'per_city-late', from: { node: 'per_city', port: 'late' }, to: { node: 'late_sales', port: 'in' } },
  ],
};

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const select = (page: Page, id: string) => node(page, id).locator('.op-label').click();
const body = (page: Page) => page.locator('.bottom-body');

async function bothThemes(t: TestContext, name: string): Promise<void> {
  await t.page.waitForTimeout(250); // let a flash or a flow animation settle
  await t.screenshot(`observatory-${name}-light`);
  await t.page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await t.expectVisible(t.page.locator('html[data-theme="dark"]'));
  await t.page.waitForTimeout(150);
  await t.screenshot(`observatory-${name}-dark`);
  await t.page.getByRole('button', { name: 'Switch to light theme' }).click();
  await t.expectVisible(t.page.locator('html[data-theme="light"]'));
}

/** Steps one record at a time (with the toolbar's Step) until `done` holds, at most `max` records. */
async function stepUntil(t: TestContext, what: string, done: () => Promise<boolean>, max = 20): Promise<void> {
  const { page } = t;
  const status = page.getByRole('status', { name: 'Run status' });
  const records = async () => Number(/(\d+) record/.exec((await status.textContent()) ?? '')?.[1] ?? 0);
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    if (/Finished/.test((await status.textContent()) ?? '')) break;
    const before = await records();
    // One set of step controls: the toolbar's Step, by record.
    await page.getByRole('combobox', { name: 'Step by' }).selectOption('record');
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    // The last record ends the run: then there is no next one to wait for.
    await t.waitFor(`record ${before + 1} to be read`, async () => (await records()) > before || /Finished/.test((await status.textContent()) ?? ''));
    await page.waitForTimeout(150); // the frame after the step
  }
  // A busy machine may draw the step's effect a few frames late.
  await t.waitFor(`${what} within ${max} records`, async () => (await done()) || null, 5000);
}

test('observatory: an order waits in the left buffer until its payment arrives', async (t) => {
  const page = await importDoc(t, JOIN_DOC, 'paid');
  await select(page, 'paid');
  await tab(page, 'Join buffers').click();
  const left = page.getByRole('region', { name: 'Left buffer' });
  const right = page.getByRole('region', { name: 'Right buffer' });
  const output = page.getByRole('region', { name: 'Output', exact: true });
  await stepUntil(t, 'order o1 waiting in the left buffer', async () => (await left.locator('tr.obs-waiting', { hasText: 'o1' }).count()) > 0 && (await right.locator('tr').count()) > 2);
  // A left join emits the unmatched order padded with NULLs right away, and no pair yet.
  await t.expectVisible(output.locator('.obs-match.padded', { hasText: 'order_id=o1' }));
  t.expect(!(await output.textContent())?.includes('paid=10'), 'no joined pair before the payment arrived');
  await bothThemes(t, 'join-waiting');

  // Subscribe to o1's changelog (a push query) before its payment arrives.
  await tab(page, 'Query').click();
  await page.getByRole('textbox', { name: 'Key field order_id' }).fill('o1');
  await page.getByRole('button', { name: 'Subscribe to key', exact: true }).click();
  await tab(page, 'Join buffers').click();

  await stepUntil(t, 'the payment of o1 to meet its order', async () => (await output.locator('.obs-match.kind-add:not(.padded)', { hasText: 'paid=10' }).count()) > 0);
  // The pair flows out: the padded row is retracted (-D), then the joined row is inserted (+I).
  await t.expectVisible(output.locator('.obs-match.kind-del.padded', { hasText: 'order_id=o1' }));
  await t.expectVisible(left.locator('tr:not(.obs-waiting)', { hasText: 'o1' })); // a regular join keeps the row
  await bothThemes(t, 'join-matched');

  await tab(page, 'Query').click();
  const changes = page.getByRole('log', { name: 'Changelog of the subscription' });
  await t.expectVisible(changes.locator('.obs-change.kind-del', { hasText: 'order_id=o1' }));
  await t.expectVisible(changes.locator('.obs-change.kind-add', { hasText: 'paid=10' }));
  t.expect((await changes.locator('.obs-change', { hasText: 'order_id=o2' }).count()) === 0, 'a key subscription shows only that key');
  await bothThemes(t, 'query-push');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await t.expectText(page.getByRole('region', { name: 'Pull query result' }), 'paid=10');
  await bothThemes(t, 'query-pull');

  await tab(page, 'Trace').click();
  await t.expectVisible(page.getByRole('list', { name: 'Trace of the last records' }).locator('li', { hasText: 'payments' }).first());
  await bothThemes(t, 'trace');
}, { timeoutMs: 150_000 });

test('observatory: stepping watermarks fires a window pane; a late record goes to the late output', async (t) => {
  const page = await importDoc(t, WINDOW_DOC, 'per_city');
  await select(page, 'per_city');
  await tab(page, 'Windows').click();
  const timeline = page.getByRole('img', { name: /Window panes on an event-time axis/ });
  const status = page.getByRole('status', { name: 'Run status' });
  await stepUntil(t, 'three records read', async () => /\b3 records/.test((await status.textContent()) ?? ''));
  await t.expectVisible(timeline.locator('[data-status="pending"]'));
  t.expect((await timeline.locator('[data-status="fired"]').count()) === 0, 'no pane fired before the watermark passed 10 s');
  // The panes sit on an event-time axis with round ticks, and the watermark is marked on it.
  const ticks = await timeline.locator('.obs-tick text').allTextContents();
  t.expect(ticks.length >= 3 && ticks.map(Number).every((v, i, a) => i === 0 || v > a[i - 1]), `event-time ticks in order: ${ticks.join(', ')}`);
  const tickBoxes = await timeline.locator('.obs-tick text').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
  t.expect(tickBoxes.every((b, i) => i === 0 || b[0] >= tickBoxes[i - 1][1]), 'tick labels do not overlap');
  await t.expectCount(timeline.locator('.obs-wm-marker'), 1);
  await t.expectText(timeline.locator('.obs-wm-line'), /watermark \d+/);
  await bothThemes(t, 'windows-pending');
  await stepUntil(t, 'four records read', async () => /\b4 records/.test((await status.textContent()) ?? '')); // the 12 s row
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('watermark');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await t.waitFor('the [0 s, 10 s) panes to fire', async () => (await timeline.locator('[data-status="fired"], [data-status="purged"]').count()) >= 2);
  await stepUntil(t, 'the late record', async () => (await page.getByRole('list', { name: 'Late output' }).count()) > 0, 3);
  await t.expectText(body(page), 'Late records: 1');
  await t.expectText(page.getByRole('list', { name: 'Late output' }), 'city=Lyon amount=4');
  await bothThemes(t, 'windows');
  await tab(page, 'State').click();
  await t.expectVisible(page.getByRole('table', { name: 'State of per_city' }));
  await bothThemes(t, 'state-window');
  // Once the input has ended the watermark is at the end of time: it says so rather than "—".
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished/, 20_000);
  await tab(page, 'Windows').click();
  await t.expectText(body(page), 'watermark end');
  t.expect(!((await body(page).textContent()) ?? '').includes('watermark —'), 'no "watermark —" after the end');
  await t.screenshot('observatory-windows-ended');
  // The same panels in Traditional Chinese (technical terms stay in English).
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await tab(page, '視窗').click();
  await t.expectText(body(page), '遲到紀錄：1');
  await t.expectText(body(page), 'watermark 已到終點');
  await t.screenshot('observatory-windows-zh-TW');
}, { timeoutMs: 150_000 });

test('observatory: barriers on edges, the checkpoint timeline, time travel and the state diff', async (t) => {
  const page = await openExample(t, /Open example sales_by_store/, 'sales');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Running · [1-9]/);
  await tab(page, 'Checkpoints').click();
  await t.waitFor('a barrier marker on an edge', async () => (await page.locator('.obs-barrier').count()) > 0, 20_000);
  await t.screenshot('observatory-barriers-light');
  await t.waitFor('three completed checkpoints', async () => (await page.locator('.obs-cp-completed').count()) >= 3, 30_000);
  await t.screenshot('observatory-canvas-running-light');
  await page.getByRole('button', { name: 'Pause' }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Paused/);
  await bothThemes(t, 'checkpoints');

  // Diff the oldest and newest retained checkpoints: store counts changed between them.
  const rows = page.getByRole('list', { name: 'Checkpoint timeline' }).locator('.obs-cp-completed').filter({ has: page.getByRole('button', { name: 'Restore' }) });
  const ids = (await rows.locator('.obs-cp-id').allTextContents()).map((s) => Number(s.slice(1)));
  const [newest, oldest] = [Math.max(...ids), Math.min(...ids)];
  await page.getByRole('listitem', { name: `Checkpoint ${oldest}` }).getByRole('checkbox', { name: 'Compare' }).check();
  await page.getByRole('listitem', { name: `Checkpoint ${newest}` }).getByRole('checkbox', { name: 'Compare' }).check();
  await page.getByRole('button', { name: 'Diff…' }).click();
  const diff = page.getByRole('region', { name: `State diff: checkpoint ${oldest} → ${newest}` });
  await t.expectText(diff, /[1-9]\d* changed/);
  await bothThemes(t, 'diff');
  const changed = diff.locator('li.obs-diff-changed').first();
  const key = (await changed.getAttribute('data-key')) ?? '';
  const before = JSON.parse((await changed.getAttribute('data-before')) ?? '{}') as Record<string, unknown>;
  t.expect(key && Object.keys(before).length, 'a changed key with its state before');

  // Time travel to the oldest checkpoint: the state table shows that key's value as it was then.
  await page.getByRole('listitem', { name: `Checkpoint ${oldest}` }).getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('group', { name: `Confirm restoring checkpoint ${oldest}` }).getByRole('button', { name: 'Yes, restore' }).click();
  await t.expectText(page.locator('.obs-message-ok'), `Restored checkpoint ${oldest}`);
  await select(page, 'sales');
  await tab(page, 'State').click();
  await page.getByRole('searchbox', { name: 'Search keys' }).fill(key);
  const table = page.getByRole('table', { name: 'State of sales' });
  // The diff compares stored state: read the raw accumulators, not the output columns.
  await page.getByRole('button', { name: 'Raw state' }).click();
  const [descriptor, value] = Object.entries(before)[0];
  const column = await table.getByRole('columnheader').allTextContents();
  const at = column.findIndex((c) => c.startsWith(descriptor));
  t.expect(at > 0, `a column for state ${descriptor}, got ${column.join(', ')}`);
  await t.waitFor(`the ${descriptor} state of ${key} back to ${JSON.stringify(value)}`, async () => {
    const cell = table.locator('.obs-row', { hasText: key }).first().getByRole('cell').nth(at);
    const shown = await cell.locator('summary, .obs-value').first().getAttribute('title', { timeout: 1000 }).catch(() => null);
    return shown === JSON.stringify(value) || (await cell.textContent().catch(() => '')) === String(value);
  });
  await bothThemes(t, 'state-after-restore');
}, { timeoutMs: 150_000 });

test('observatory: a conditional breakpoint pauses the run where the record reaches the node', async (t) => {
  const page = await importDoc(t, JOIN_DOC, 'paid');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '1 / s' });
  await tab(page, 'Trace').click();
  const breakpoints = page.getByRole('region', { name: 'Breakpoints' });
  await breakpoints.getByRole('textbox', { name: 'Condition for paid' }).fill("order_id = 'o2'");
  await breakpoints.getByRole('checkbox', { name: 'paid' }).check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Running/);
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Paused/, 45_000);
  await tab(page, 'Trace').click(); // Run opened Results
  const hit = page.getByRole('status').filter({ hasText: 'Paused at breakpoint on paid' });
  await t.expectText(hit, 'order_id=o2');
  await bothThemes(t, 'breakpoint');
}, { timeoutMs: 120_000 });
