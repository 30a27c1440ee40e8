// The designer on the parallel runtime: IndexedDB state, wall-clock checkpoints every 500 ms,
// a subtask killed from the toolbar, and a page reloaded mid-run then resumed. Both must end
// with exactly the view an uninterrupted run gives (the Results tab shows committed output).
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import type { Page } from 'playwright-core';
import { node, openApp, openExample, openRunSettings } from './designer-helpers.spec.ts';

const SINK = 'sales_by_store';
const status = (page: Page) => page.getByRole('status', { name: 'Run status' });

/** Opens the sales example (2,000 records) as a project with IndexedDB state, 500 ms checkpoints, parallelism 2. */
async function openDurableExample(t: TestContext, speed: string): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: /Open example sales_by_store/ }).click();
  await t.expectVisible(node(page, SINK));
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'State', exact: true }).selectOption('indexeddb');
  await page.getByRole('combobox', { name: 'Checkpoint', exact: true }).selectOption('500');
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('2');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: speed });
  return page;
}

/** Every row of the sink's table as text (the view has a handful of stores: all rows are rendered). */
async function sinkView(t: TestContext, page: Page): Promise<string[]> {
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: `Rows of ${SINK}` });
  await t.expectVisible(table);
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  // Sums of doubles round differently when batch boundaries differ (speed sets the batch size): compare to 9 digits.
  const texts = await rows.evaluateAll((els) =>
    els.map((e) => [...e.querySelectorAll('[role=cell]')].map((c) => (c.textContent && /^-?\d+\.\d+$/.test(c.textContent) ? Number(c.textContent).toPrecision(9) : c.textContent)).join(' | ')),
  );
  t.expect(texts.length > 0, 'the sink view has rows');
  return texts;
}

/** The reference: the same pipeline run again from the start without interruption, as fast as possible. */
async function uninterruptedView(t: TestContext, page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await t.expectText(status(page), 'Not running');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Finished/, 60_000);
  t.expect(!/restart/.test((await status(page).textContent()) ?? ''), 'the reference run had no restart');
  return sinkView(t, page);
}

async function logText(page: Page): Promise<string> {
  await page.getByRole('tab', { name: /^Log/ }).click();
  return (await page.getByRole('log', { name: 'Log' }).textContent()) ?? '';
}

test('runtime designer: kill a subtask from the toolbar mid-run; the job restores and ends with the failure-free view', async (t) => {
  const page = await openDurableExample(t, '50 / s'); // 40 s of input: time to pick a subtask mid-run
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*checkpoint/, 20_000);
  await page.getByRole('button', { name: 'Kill a subtask…' }).click();
  const picker = page.getByRole('combobox', { name: 'Subtask to kill' });
  await t.expectVisible(picker);
  const options = await picker.locator('option').allTextContents();
  t.expect(options.includes('sales#0') && options.includes('sales#1'), `the picker lists both subtasks of the aggregate (got ${options.join(', ')})`);
  await picker.selectOption('sales#1');
  await t.screenshot('runtime-designer-toolbar');
  await page.getByRole('button', { name: 'Kill', exact: true }).click();
  await t.expectText(status(page), /1 restart/, 20_000);
  await t.expectText(status(page), /Finished/, 60_000);
  const log = await logText(page);
  t.expect(/job failed: subtask sales#1 was killed/.test(log), 'the log shows the failure');
  t.expect(/job restarted from checkpoint \d+ \(attempt 2\)/.test(log), 'the log shows the restore from a checkpoint');
  const killed = await sinkView(t, page);
  const reference = await uninterruptedView(t, page);
  t.expect(JSON.stringify(killed) === JSON.stringify(reference), `the view after the kill equals the uninterrupted view\nkilled:    ${killed.join(' / ')}\nreference: ${reference.join(' / ')}`);
}, { timeoutMs: 150_000 });

test('runtime designer: reload the page mid-run, resume from the prompt, and end with the uninterrupted view', async (t) => {
  const page = await openDurableExample(t, '50 / s'); // still far from the end when the page reloads
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*[2-9] checkpoints/, 20_000);
  await page.reload();
  await t.expectVisible(page.locator('body[data-ready="true"]'));
  const prompt = page.getByRole('dialog', { name: 'Resume the interrupted run?' });
  await t.expectVisible(prompt, 20_000);
  await t.expectText(prompt, /Resume from checkpoint \d+ \([\d,]+ records read, /);
  await t.screenshot('runtime-designer-resume-prompt');
  await prompt.getByRole('button', { name: 'Resume', exact: true }).click();
  await t.expectHidden(prompt);
  await t.expectText(status(page), /Running/);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await t.expectText(status(page), /Finished/, 60_000);
  const log = await logText(page);
  t.expect(/resumed from checkpoint \d+ \([1-9][\d,]* records read\)/.test(log), 'the log says where the run resumed');
  const resumed = await sinkView(t, page);
  const reference = await uninterruptedView(t, page);
  t.expect(JSON.stringify(resumed) === JSON.stringify(reference), `the resumed view equals the uninterrupted view\nresumed:   ${resumed.join(' / ')}\nreference: ${reference.join(' / ')}`);
}, { timeoutMs: 150_000 });

/** A node's "in" and "out" counters on the canvas (plain numbers below 10,000). */
async function counters(page: Page, id: string): Promise<{ in: number; out: number; restored: string | null }> {
  const line = page.getByLabel(`metrics of ${id}`, { exact: true });
  const num = async (title: string) => Number(((await line.locator(`span[title^="${title}"]`).textContent()) ?? '').replace(/\D/g, ''));
  const tag = line.locator('.op-restored');
  return { in: await num('records in'), out: await num('records out'), restored: (await tag.count()) ? await tag.textContent() : null };
}

const recordsRead = async (page: Page): Promise<number> => Number(/([\d,]+) records/.exec((await status(page).textContent()) ?? '')?.[1].replace(/,/g, '') ?? NaN);

/** Along camera → "Entries only" → visits → view, each node took in what the one before sent out. */
async function expectChainAgrees(t: TestContext, page: Page, when: string): Promise<{ camera: number; entries: number }> {
  const [camera, entries, visits, view] = await Promise.all(['camera', 'entries', 'visits', 'visits_view'].map((id) => counters(page, id)));
  const read = await recordsRead(page);
  const all = `camera ${JSON.stringify(camera)}, entries ${JSON.stringify(entries)}, visits ${JSON.stringify(visits)}, view ${JSON.stringify(view)}, read ${read}`;
  t.expect(camera.out === read, `${when}: the source sent what the status says was read (${all})`);
  t.expect(entries.in === camera.out, `${when}: "Entries only" took in what the camera sent (${all})`);
  t.expect(entries.out > 0, `${when}: "Entries only" has let entries through (${all})`);
  t.expect(visits.in === entries.out, `${when}: the count took in what "Entries only" let through (${all})`);
  t.expect(view.in === visits.out, `${when}: the view took in the count's changelog (${all})`);
  return { camera: camera.out, entries: entries.out };
}

test('runtime designer: after a kill from the toolbar, node counters are the restored checkpoint\'s and go on from there', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'entries');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*[2-9] checkpoints/, 20_000);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await t.expectText(status(page), /Paused/);
  const before = await expectChainAgrees(t, page, 'before the kill');
  await t.screenshot('runtime-designer-counters-before-kill');
  await page.getByRole('button', { name: 'Kill a subtask…' }).click();
  await page.getByRole('combobox', { name: 'Subtask to kill' }).selectOption('visits#0');
  await page.getByRole('button', { name: 'Kill', exact: true }).click();
  await t.expectText(status(page), /1 restart/, 20_000);
  const log = await logText(page);
  const cp = /job restarted from checkpoint (\d+) \(attempt 2\)/.exec(log)?.[1];
  t.expect(cp !== undefined, 'the log shows the restore from a checkpoint');
  const restored = await expectChainAgrees(t, page, 'right after the restore');
  // The canvas says which counts these are: the checkpoint's, and on from there.
  await t.expectText(page.getByLabel('metrics of entries', { exact: true }), `↺ cp ${cp}`);
  await t.screenshot('runtime-designer-counters-after-restore');
  t.expect(restored.camera > 0 && restored.camera <= before.camera, `the counts went back to the checkpoint, not to 0 (camera ${before.camera} → ${restored.camera})`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running/);
  await page.waitForFunction((n) => Number(/([\d,]+) records/.exec(document.querySelector('[aria-label="Run status"]')?.textContent ?? '')?.[1].replace(/,/g, '')) > n + 20, restored.camera);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await t.expectText(status(page), /Paused/);
  const later = await expectChainAgrees(t, page, 'after running on');
  t.expect(later.camera > restored.camera && later.entries >= restored.entries, `the counts went on from the checkpoint's (camera ${restored.camera} → ${later.camera})`);
}, { timeoutMs: 90_000 });
