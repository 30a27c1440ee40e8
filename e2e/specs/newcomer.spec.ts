// What a newcomer meets in the designer: stepping by barrier, the checkpoint timeline after a
// restore, and (in first-ten-minutes.spec.ts) the walk from the README's first command.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { node, openApp } from './designer-helpers.spec.ts';

export async function openExample(t: TestContext, title: RegExp, someNode: string): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: title }).click();
  await t.expectVisible(node(page, someNode));
  return page;
}

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
