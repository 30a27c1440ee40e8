// What a newcomer meets in the designer: stepping by barrier, the checkpoint timeline after a
// restore, and (in first-ten-minutes.spec.ts) the walk from the README's first command.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { dragWire, handle, importDoc, node, openExample, select } from './designer-helpers.spec.ts';

const status = (page: Page) => page.getByRole('status', { name: 'Run status' });
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

test('newcomer: stepping by barrier stops at the next barrier on an edge and shows it there', async (t) => {
  const page = await openExample(t, /Open example sales_by_store/, 'sales');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 3; i++) {
    await step.click();
    await t.expectText(status(page), /Paused/);
  }
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('barrier');
  await step.click();
  // Not the whole job: the run is paused with a barrier sitting on an edge of the canvas.
  await t.waitFor('a barrier queued on an edge', async () => (await page.locator('.obs-barrier:not(.obs-barrier-sweep)').count()) > 0);
  await t.expectText(status(page), /Paused/);
  t.expect(!/Finished/.test((await status(page).textContent()) ?? ''), 'stepping by barrier must not run the job to its end');
  await tab(page, 'Checkpoints').click();
  await t.expectVisible(page.getByText(/checkpoint 1 in flight/i));
  await t.screenshot('newcomer-step-barrier-1');
  // The next presses move that barrier hop by hop until the checkpoint completes.
  for (let i = 0; i < 40 && (await page.locator('.obs-cp-completed').count()) === 0; i++) {
    await step.click();
    await t.expectText(status(page), /Paused/);
  }
  await t.expectVisible(page.locator('.obs-cp-completed').first());
  t.expect(!/Finished/.test((await status(page).textContent()) ?? ''), 'the job is still paused after its first checkpoint');
  await t.screenshot('newcomer-step-barrier-completed');
}, { timeoutMs: 120_000 });

const pos = (x: number, y: number) => ({ x, y });
/** A Group by with event time upstream, and a window aggregate not yet connected. */
const GROUP_THEN_WINDOW = {
  format: 'weir/pipeline',
  version: 1,
  name: 'group then window (e2e)',
  nodes: [
    { id: 'visits', kind: 'inlineSource', params: { rows: [{ k: 'a', ts: 1000 }], eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } }, position: pos(0, 80) },
    { id: 'per_key', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] }, position: pos(320, 80) },
    { id: 'per_minute', kind: 'window', params: { type: 'tumble', sizeMs: 60000, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] }, position: pos(760, 260) },
  ],
  edges: [{ id: 'visits-per_key', from: { node: 'visits', port: 'out' }, to: { node: 'per_key', port: 'in' } }],
};

test('newcomer: Group by → Window aggregate is refused at connection time, saying the output is updating', async (t) => {
  const page = await importDoc(t, GROUP_THEN_WINDOW, 'per_minute');
  await dragWire(page, handle(page, 'per_key', 'out', 'out'), handle(page, 'per_minute', 'in', 'in'), false);
  const tip = page.getByRole('tooltip');
  await t.expectText(tip, /per_key sends an updating changelog/);
  await t.expectText(tip, /Put Window aggregate before per_key/);
  await t.screenshot('newcomer-group-window-refused');
  await page.mouse.up();
  await t.expectCount(page.locator('.react-flow__edge'), 1);
});

test('newcomer: deleting the sink warns that a filter now feeds nothing', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'big_log');
  await tab(page, 'Problems').click();
  await t.expectText(page.locator('.bottom-body'), 'No problems. The pipeline is ready to run.');
  await select(t, 'big_log');
  await page.keyboard.press('Delete');
  await t.expectHidden(node(page, 'big_log'));
  await tab(page, 'Problems').click();
  const warnings = page.getByRole('list', { name: 'Warnings' });
  await t.expectText(warnings, /The output of big_orders goes nowhere/);
  t.expect(!/ready to run/.test((await page.locator('.bottom-body').textContent()) ?? ''), 'no "ready to run" while an output goes nowhere');
  await t.screenshot('newcomer-dangling-output');
  await warnings.getByRole('button', { name: /big_orders/ }).click();
  await t.expectVisible(page.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'id', exact: true }));
});

for (const [width, height] of [[1280, 720], [1024, 768], [900, 700]] as const) test(`newcomer: the observatory tabs stay put, open on the first view, and explain an empty tab at ${width}×${height}`, async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'visits');
  await page.setViewportSize({ width, height });
  const names = async () => (await page.getByRole('tablist', { name: 'Output', exact: true }).getByRole('tab').allTextContents()).map((s) => s.replace(/\s*\d+$/, ''));
  const before = await names();
  t.expect(['State', 'Join buffers', 'Windows'].every((n) => before.includes(n)), `node tabs are there before a selection: ${before.join(', ')}`);
  await select(t, 'visits');
  t.expect(JSON.stringify(await names()) === JSON.stringify(before), 'selecting a node does not move the tabs');
  await tab(page, 'Results').click();
  await t.expectVisible(page.getByRole('tablist', { name: 'Sinks' }).getByRole('tab', { name: 'visits_view', selected: true }));
  await tab(page, 'Query').click();
  await t.expectText(page.locator('.bottom-body'), /visits_per_customer/);
  t.expect(!/big_log/.test((await page.locator('.bottom-body').textContent()) ?? ''), 'Query does not offer the log sink');
  await tab(page, 'Windows').click();
  await t.expectText(page.locator('.bottom-body'), /This pipeline has no window/);
  await tab(page, 'State').click();
  await t.expectText(page.locator('.bottom-body'), /visits/);
  await t.screenshot(`newcomer-tabs-state-${width}x${height}`);
});

test('newcomer: after Run, Results still opens on the first view, not the empty log sink', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /[1-9][\d,]* records/, 30_000);
  await tab(page, 'Results').click();
  await t.expectVisible(page.getByRole('tablist', { name: 'Sinks' }).getByRole('tab', { name: 'visits_view', selected: true }));
  // A sink picked by hand stays picked across the next run.
  await page.getByRole('tablist', { name: 'Sinks' }).getByRole('tab', { name: 'big_log' }).click();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /[1-9][\d,]* records/, 30_000);
  await t.expectVisible(page.getByRole('tablist', { name: 'Sinks' }).getByRole('tab', { name: 'big_log', selected: true }));
});

test('newcomer: the Projects dialog starts a new project on a blank canvas', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('button', { name: 'Projects', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'New project' }).click();
  await t.expectCount(page.locator('.react-flow__node'), 0);
  await page.getByRole('button', { name: 'Projects', exact: true }).click();
  await t.expectVisible(page.getByRole('list', { name: 'Saved projects' }).getByRole('listitem').nth(1));
});

test('newcomer: a restore while paused leaves no checkpoint pending; the status, the header and the timeline count alike', async (t) => {
  const page = await openExample(t, /Open example sales_by_store/, 'sales');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running · [1-9]/);
  await tab(page, 'Checkpoints').click();
  await t.waitFor('three completed checkpoints', async () => (await page.locator('.obs-cp-completed').count()) >= 3, 30_000);
  await page.getByRole('button', { name: 'Pause' }).click();
  await t.expectText(status(page), /Paused/);
  // A checkpoint in flight when the restore lands.
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('barrier');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await t.expectVisible(page.getByText(/checkpoint \d+ in flight/i));
  const timeline = page.getByRole('list', { name: 'Checkpoint timeline' });
  const ids = (await timeline.locator('.obs-cp-completed').filter({ has: page.getByRole('button', { name: 'Restore' }) }).locator('.obs-cp-id').allTextContents()).map((s) => Number(s.slice(1)));
  const oldest = Math.min(...ids);
  await page.getByRole('listitem', { name: `Checkpoint ${oldest}` }).getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('group', { name: `Confirm restoring checkpoint ${oldest}` }).getByRole('button', { name: 'Yes, restore' }).click();
  await t.expectText(page.locator('.obs-message-ok'), `Restored checkpoint ${oldest}`);
  await page.waitForTimeout(1500); // still paused: nothing may stay pending
  t.expect((await timeline.locator('.obs-cp-pending').count()) === 0, 'no checkpoint stays pending after a restore while paused');
  const rows = await timeline.getByRole('listitem').count();
  const completed = await timeline.locator('.obs-cp-completed').count();
  await t.expectText(page.locator('.obs-bar').first(), `Checkpoints: ${completed} completed of ${rows}`);
  await t.expectText(status(page), new RegExp(`· ${completed} checkpoints?\\b`));
  await t.screenshot('newcomer-restore-paused');
}, { timeoutMs: 120_000 });

test('newcomer: the State tab shows the declared columns, timestamps as Results writes them, raw state one click away', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Finished/, 60_000);
  await select(t, 'visits');
  await tab(page, 'State').click();
  const table = page.getByRole('table', { name: 'State of visits' });
  const headers = await table.getByRole('columnheader').allTextContents();
  t.expect(headers.some((h) => h.startsWith('visits')) && headers.some((h) => h.startsWith('last_visit')), `the declared columns head the table: ${headers.join(', ')}`);
  const at = headers.findIndex((h) => h.startsWith('last_visit'));
  const cell = (await table.locator('.obs-row').first().getByRole('cell').nth(at).textContent()) ?? '';
  t.expect(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/.test(cell.trim()), `last_visit reads as a time, as in Results, not epoch ms: "${cell}"`);
  const updated = (await table.locator('.obs-row').first().getByRole('cell').nth(headers.findIndex((h) => h.startsWith('Last update'))).textContent()) ?? '';
  t.expect(/ms$|^\d\d:\d\d:\d\d/.test(updated.trim()), `the last update has a unit: "${updated}"`);
  await t.screenshot('newcomer-state-columns');
  await page.getByRole('button', { name: 'Raw state' }).click();
  await t.waitFor('the raw accumulators', async () => (await table.getByRole('columnheader').allTextContents()).join(' ') !== headers.join(' '));
}, { timeoutMs: 90_000 });
