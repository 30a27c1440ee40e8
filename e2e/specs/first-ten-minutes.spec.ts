// A newcomer's first ten minutes, from the README's first command (the app in a browser): the
// example, a run to the end, the observatory, the Flink SQL export. It fails on any console error
// and any request leaving localhost (the harness), on text cut off in the header or the toolbar at
// 1280×720, 1024×768 and 900×700, and on a number that the status, the nodes and the export do not
// agree on. At the smaller sizes it reaches what folded away (Speed under Settings, the export
// under More) as a person would.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { openExample, openRunSettings } from './designer-helpers.spec.ts';

const num = (s: string | null | undefined): number => Number((s ?? '').replace(/[,\s]/g, ''));

/** Elements of the header and the toolbars whose text does not fit their box. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const boxes = document.querySelectorAll('.header button, .header select, .header .doc-name, .header .brand-name, .editbar button, .editbar select, .run-controls button, .run-controls select, .run-status-pill, [aria-label="Run status"]');
    for (const el of boxes) {
      const e = el as HTMLElement;
      if (e.offsetParent === null) continue;
      const r = e.getBoundingClientRect();
      const clipped = e.scrollWidth > e.clientWidth + 1 || r.right > window.innerWidth + 0.5 || r.left < -0.5;
      if (clipped) out.push(`${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return out;
  });
}

/** Sets the Speed where it is: in the output panel's header, or (narrow windows) under Settings. */
async function chooseSpeed(t: TestContext, value: string): Promise<void> {
  const { page } = t;
  const inRow = page.getByRole('group', { name: 'Run settings' }).getByRole('combobox', { name: 'Speed' });
  if (!(await inRow.isVisible())) await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption(value);
  if (await page.getByRole('dialog', { name: 'Run settings' }).isVisible()) await page.keyboard.press('Escape');
}

/** Opens a header action, from the More menu when the window is too narrow for it. */
async function headerAction(t: TestContext, name: string): Promise<void> {
  const nav = t.page.getByRole('navigation', { name: 'Project' });
  const direct = nav.getByRole('button', { name, exact: true });
  if (await direct.isVisible()) return direct.click();
  await nav.getByRole('button', { name: /More/ }).click();
  await nav.getByRole('menu', { name: 'More' }).getByRole('menuitem', { name, exact: true }).click();
}

for (const [w, h] of [[1280, 720], [1024, 768], [900, 700]] as const) test(`first ten minutes: example, run, observatory and export agree, nothing cut off at ${w}×${h}`, async (t) => {
  const { page } = t;
  const size = `${w}×${h}`;
  await page.setViewportSize({ width: w, height: h });
  await t.page.goto(t.baseUrl + '/');
  const page2 = await openExample(t, /Open example Coffee shop/, 'camera');
  t.expect(page2 === page, 'one page');
  const cut = await cutOff(page);
  t.expect(cut.length === 0, `text cut off in the header or toolbar at ${size}: ${cut.join(', ')}`);
  await t.screenshot(`first-ten-minutes-opened-${w}x${h}`);

  // Run it to the end as fast as it goes.
  await chooseSpeed(t, 'max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  await t.expectText(status, /Finished/, 60_000);
  const read = num(/([\d,]+) records/.exec((await status.textContent()) ?? '')?.[1]);
  t.expect(read > 0, `the status counts records: ${await status.textContent()}`);
  const cutRunning = await cutOff(page);
  t.expect(cutRunning.length === 0, `text cut off after the run at ${size}: ${cutRunning.join(', ')}`);

  // The source node says as many records out as the status says were read.
  const line = page.getByLabel('Metrics of camera');
  const out = num(/out ([\d.,k]+)/.exec((await line.textContent()) ?? '')?.[1]);
  t.expect(out === read, `the status reads ${read} records, the source node says out ${out}`);
  const entries = num(/in ([\d,]+)/.exec((await page.getByLabel('Metrics of entries').textContent()) ?? '')?.[1]);
  t.expect(entries === read, `the filter after the source took in ${entries}, not ${read}`);
  // Down every edge, what one node sends is what the next takes in.
  const metric = async (id: string, which: 'in' | 'out') => num(new RegExp(`${which} ([\\d,]+)`).exec((await page.getByLabel(new RegExp(`^metrics of ${id}$`, 'i')).textContent()) ?? '')?.[1]);
  for (const [from, to] of [['big_orders', 'big_log'], ['entries', 'visits'], ['visits', 'visits_view']]) {
    const [sent, took] = [await metric(from, 'out'), await metric(to, 'in')];
    t.expect(sent > 0 && sent === took, `${from} says out ${sent}, ${to} says in ${took}`);
  }
  // The status counts the checkpoints the Checkpoints tab lists as completed.
  const shown = Number(/(\d+) checkpoints?\b/.exec((await status.textContent()) ?? '')?.[1] ?? 0);

  // Every observatory tab opens and says something.
  for (const name of ['Results', 'Log', 'State', 'Join buffers', 'Windows', 'Checkpoints', 'Trace', 'Query']) {
    await page.getByRole('tab', { name, exact: true }).click();
    const text = ((await page.locator('.bottom-body').textContent()) ?? '').trim();
    t.expect(text.length > 10, `the ${name} tab is empty`);
  }
  await page.getByRole('tab', { name: 'Checkpoints', exact: true }).click();
  const completed = await page.getByRole('list', { name: 'Checkpoint timeline' }).locator('.obs-cp-completed').count();
  t.expect(completed === shown, `the status says ${shown} checkpoints, the Checkpoints tab lists ${completed} completed`);
  await t.screenshot(`first-ten-minutes-finished-${w}x${h}`);
  // The header and the toolbar fit in the other language too.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  const cutZh = await cutOff(page);
  t.expect(cutZh.length === 0, `text cut off in the header or toolbar at ${size} in zh-TW: ${cutZh.join(', ')}`);
  await t.screenshot(`first-ten-minutes-zh-TW-${w}x${h}`);
  await page.getByRole('combobox', { name: '語言' }).selectOption('en');

  // The Flink SQL export generates as many rows as the run read.
  await headerAction(t, 'Flink SQL');
  await t.expectVisible(page.getByRole('dialog').locator('.view-lines'), 20_000);
  await t.screenshot(`first-ten-minutes-export-${w}x${h}`);
  const download = page.waitForEvent('download');
  await page.getByRole('dialog').getByRole('button', { name: /Download/ }).click();
  const file = await (await download).path();
  const { readFileSync } = await import('node:fs');
  const sql = readFileSync(file, 'utf8');
  const rows = num(/'number-of-rows'\s*=\s*'(\d+)'/.exec(sql)?.[1]);
  t.expect(rows === read, `the export says number-of-rows = ${rows}, the run read ${read}`);
}, { timeoutMs: 120_000 });
