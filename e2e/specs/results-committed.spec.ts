// The Results view shows a sink's committed table: it says which checkpoint committed it and how
// many changes the sink took in since, so it never silently disagrees with the sink node's "in".
import { test } from '../harness.ts';
import { openExample } from './designer-helpers.spec.ts';

const num = (s: string | null | undefined): number => Number((s ?? '').replace(/[,\s]/g, ''));

test('results: paused between checkpoints, the table says which checkpoint committed it and how many changes are pending', async (t) => {
  const page = await openExample(t, /Open example Coffee shop/, 'camera');
  const status = page.getByRole('status', { name: 'Run status' });
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await page.getByRole('tab', { name: 'Results', exact: true }).click();
  const bar = page.locator('.results-bar');
  const view = page.getByLabel(/^metrics of visits_view$/i);
  // Before any checkpoint the view has taken changes in, and the table says none is committed yet.
  const inAt = async () => ((await view.count()) ? num(/in ([\d,]+)/.exec((await view.textContent()) ?? '')?.[1]) : 0);
  for (let i = 0; i < 40 && (await inAt()) === 0; i++) {
    await step.click();
    await t.expectText(status, /Paused/);
  }
  await t.expectText(bar, /nothing committed yet · \d+ pending until the first checkpoint/);
  // A checkpoint by barrier steps, then more records: rows committed by it, and some pending.
  await page.getByRole('button', { name: 'Checkpoint now' }).click();
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('barrier');
  for (let i = 0; i < 40 && !/checkpoint/.test((await status.textContent()) ?? ''); i++) {
    await step.click();
    await t.expectText(status, /Paused/);
  }
  const cp = Number(/(\d+) checkpoints?/.exec((await status.textContent()) ?? '')?.[1]);
  t.expect(cp >= 1, `a checkpoint completed: ${await status.textContent()}`);
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('record');
  const start = await inAt();
  for (let i = 0; i < 60 && (await inAt()) < start + 3; i++) {
    await step.click();
    await t.expectText(status, /Paused/);
  }
  await t.expectText(bar, new RegExp(`as committed by checkpoint ${cp} · \\d+ pending until the next checkpoint`));
  const pending = num(/([\d,]+) pending/.exec((await bar.textContent()) ?? '')?.[1]);
  const changes = num(/([\d,]+) changes/.exec((await bar.textContent()) ?? '')?.[1]);
  const took = await inAt();
  t.expect(changes + pending === took, `the table's ${changes} committed changes and ${pending} pending add up to the node's in ${took}`);
  await t.screenshot('results-committed-pending');
  // In Traditional Chinese too.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await t.expectText(bar, new RegExp(`為 checkpoint ${cp} 提交的內容 · 另有 \\d+ 次變更待下一個 checkpoint 提交`));
  await page.getByRole('combobox', { name: '語言' }).selectOption('en');
  // Run to the end: everything is committed, and the note goes.
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished/, 60_000);
  await t.waitFor('the pending note to go', async () => !/pending/.test((await bar.textContent()) ?? ''));
}, { timeoutMs: 120_000 });
