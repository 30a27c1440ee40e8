// Lessons: every lesson's automatic checks walked as a learner would (run, edit in the Inspector,
// kill a subtask, answer a question), plus a screenshot of each lesson in English and zh-TW.
// Answers are computed here independently, by running the lesson's pipeline with the Node engine.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { test, type TestContext } from '../harness.ts';
import { openApp, openRunSettings, select } from './designer-helpers.spec.ts';
import { runPipeline } from '../../src/testing/runPipeline.ts';
import { exportFlinkSql } from '../../src/export/flinkSql/index.ts';
import type { Row } from '../../src/core/types.ts';

const LONG = { timeoutMs: 240_000 };
const lessonDoc = (n: number): unknown => JSON.parse(readFileSync(new URL(`../../public/lessons/lesson-${n}.json`, import.meta.url), 'utf8'));
const top = (rows: Row[], measure: string, field: string): string => String([...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]))[0][field]);

const panel = (page: Page): Locator => page.getByRole('complementary', { name: 'Lesson' });
const toolbar = (page: Page): Locator => page.getByRole('toolbar', { name: 'Run controls' });
const settings = (page: Page): Locator => page.getByRole('group', { name: 'Run settings' });

async function openLesson(t: TestContext, title: string): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  await page.getByRole('list', { name: 'All lessons' }).getByRole('button', { name: title, exact: true }).click();
  await t.expectVisible(panel(page).getByRole('heading', { name: title }));
  return page;
}

async function speed(page: Page, label: string): Promise<void> {
  await settings(page).getByLabel('Speed').selectOption({ label });
}

async function run(t: TestContext): Promise<void> {
  const button = toolbar(t.page).getByRole('button', { name: 'Run', exact: true });
  await t.waitFor('the Run button to be enabled', () => button.isEnabled());
  await button.click();
}

async function runToEnd(t: TestContext, timeoutMs = 90_000): Promise<void> {
  await run(t);
  await t.expectText(t.page.getByRole('status', { name: 'Run status' }), /Finished/, timeoutMs);
}

async function stepDone(t: TestContext, n: number, timeoutMs = 30_000): Promise<void> {
  await t.expectVisible(panel(t.page).getByRole('button', { name: `Step ${n}, done`, exact: true }), timeoutMs);
}

async function answer(t: TestContext, n: number, text: string): Promise<void> {
  await panel(t.page).getByRole('button', { name: new RegExp(`^Step ${n}(, done)?$`) }).click();
  await panel(t.page).getByRole('textbox').fill(text);
}

/** Screenshots of the open lesson in both languages; leaves the page in English. */
async function bothLanguages(t: TestContext, n: number): Promise<void> {
  const page = t.page;
  await t.screenshot(`lesson-${n}-en`);
  await page.locator('select.header-lang').selectOption('zh-TW');
  await t.expectVisible(panel(page).getByRole('button', { name: '下一步' }).or(page.getByRole('complementary', { name: '課程' })));
  await t.expectText(page.locator('.lesson-kicker'), `第 ${n} 課`);
  await t.screenshot(`lesson-${n}-zh-TW`);
  await page.locator('select.header-lang').selectOption('en');
  await t.expectText(page.locator('.lesson-kicker'), `Lesson ${n}`);
}

/** Sets a node param through its Inspector field (text, number or select), found by the param name. */
async function setField(t: TestContext, node: string, name: string, value: string): Promise<void> {
  const inspector = await select(t, node);
  // Required params are labelled "name *"; the mode radios share no label with a param.
  const label = new RegExp(`^${name}( \\*)?$`);
  const field = inspector.getByRole('textbox', { name: label }).or(inspector.getByRole('combobox', { name: label })).or(inspector.getByRole('spinbutton', { name: label })).first();
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
  else {
    await field.fill(value);
    await field.press('Tab');
  }
}

test('lessons 1: stateless vs stateful', async (t) => {
  const page = await openLesson(t, 'Stateless vs stateful');
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 1);
  await select(t, 'visits');
  await page.getByRole('tab', { name: 'State' }).click();
  await stepDone(t, 2);
  const views = runPipeline(lessonDoc(1)).views;
  await answer(t, 3, top(views.visits_view, 'visits', 'name'));
  await stepDone(t, 3);
  await t.expectVisible(panel(page).getByRole('button', { name: 'Step 4', exact: true }));
  await setField(t, 'big_orders', 'where', "visit_type = 'order' AND amount >= 4");
  await runToEnd(t);
  await stepDone(t, 4);
}, LONG);

test('lessons 1: a later step done early is not ticked until reached; the panel moves on by itself; one Step control', async (t) => {
  const page = await openLesson(t, 'Stateless vs stateful');
  // Step 4's edit first: the filter keeps $4 or more. Then a run to the end satisfies steps 1, 2 and 4.
  await setField(t, 'big_orders', 'where', "visit_type = 'order' AND amount >= 4");
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await stepDone(t, 2);
  // The panel moved on to step 3 (a question) by itself, and step 4 waits until the learner gets there.
  await t.expectVisible(panel(page).locator('[aria-current="step"]').and(page.getByRole('button', { name: 'Step 3', exact: true })));
  t.expect(await panel(page).getByRole('button', { name: 'Step 4', exact: true }).isVisible(), 'step 4 is not ticked before the learner reaches it');
  // One set of step controls: the toolbar's, whichever observatory tab is open.
  for (const name of ['State', 'Trace', 'Windows', 'Join buffers']) {
    await page.getByRole('tab', { name, exact: true }).click();
    await t.expectCount(page.getByRole('button', { name: 'Step', exact: true }), 1);
  }
  // Going to step 4 by hand reaches it: it already holds, so it ticks at once.
  await panel(page).getByRole('button', { name: 'Step 4', exact: true }).click();
  await stepDone(t, 4, 5_000);
  await t.screenshot('lesson-1-step-gating');
}, LONG);

test('lessons 2: streams and tables', async (t) => {
  const page = await openLesson(t, 'Streams and tables');
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await stepDone(t, 2);
  await bothLanguages(t, 2);
  await answer(t, 3, top(runPipeline(lessonDoc(2)).views.sales_by_store, 'revenue', 'store_id'));
  await stepDone(t, 3);
  await page.getByRole('tab', { name: 'Query' }).click();
  await page.getByRole('button', { name: 'Subscribe to view' }).click();
  await speed(page, '500 / s');
  await run(t);
  await stepDone(t, 4, 60_000);
}, LONG);

test('lessons 3: joins keep state', async (t) => {
  const page = await openLesson(t, 'Joins keep state');
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 3);
  await select(t, 'paid');
  await page.getByRole('tab', { name: 'Join buffers' }).click();
  await stepDone(t, 2);
  await stepDone(t, 3);
  await setField(t, 'paid', 'type', 'inner');
  await runToEnd(t);
  await stepDone(t, 4);
  await setField(t, 'paid', 'ttlMs', '10000');
  await stepDone(t, 5);
}, LONG);

test('lessons 4: windows and watermarks', async (t) => {
  const page = await openLesson(t, 'Windows and watermarks');
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 4);
  await setField(t, 'per_minute', 'type', 'hop');
  await setField(t, 'per_minute', 'slideMs', '10000');
  await runToEnd(t);
  await stepDone(t, 2);
  await setField(t, 'per_minute', 'type', 'session');
  await setField(t, 'per_minute', 'gapMs', '5000');
  await runToEnd(t);
  await stepDone(t, 3);
  await setField(t, 'per_minute', 'type', 'tumble');
  await setField(t, 'orders', 'maxOutOfOrdernessMs', '0');
  await speed(page, '500 / s');
  await runToEnd(t);
  await stepDone(t, 4);
}, LONG);

test('lessons 5: state backends', async (t) => {
  const page = await openLesson(t, 'State backends');
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 5);
  await openRunSettings(page);
  await settings(page).getByLabel(/^State/).selectOption('indexeddb');
  await runToEnd(t);
  await stepDone(t, 2);
  await answer(t, 3, String(runPipeline(lessonDoc(5)).views.sales_by_store.length));
  await stepDone(t, 3);
  await speed(page, '10 / s');
  await run(t);
  await stepDone(t, 4, 60_000);
}, LONG);

test('lessons 6: checkpoints, barriers and exactly-once after a kill', async (t) => {
  const page = await openLesson(t, 'Checkpoints and barriers');
  await speed(page, '50 / s');
  await run(t);
  await stepDone(t, 1, 60_000);
  await bothLanguages(t, 6);
  await stepDone(t, 2, 60_000);
  // Beside an open lesson the canvas column is narrow: Kill sits under the run toolbar's More.
  await toolbar(page).getByRole('button', { name: /^More/ }).click();
  await toolbar(page).getByRole('button', { name: 'Kill a subtask…' }).click();
  await page.getByRole('group', { name: 'Kill a subtask…' }).getByLabel('Subtask to kill').selectOption('per_key#0');
  await page.getByRole('group', { name: 'Kill a subtask…' }).getByRole('button', { name: 'Kill', exact: true }).click();
  await stepDone(t, 3, 60_000);
  await speed(page, 'Max');
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 120_000);
  await stepDone(t, 4);
}, LONG);

test('lessons 7: scaling out', async (t) => {
  const page = await openLesson(t, 'Scaling out');
  await speed(page, '50 / s');
  await run(t);
  await stepDone(t, 1, 60_000);
  await bothLanguages(t, 7);
  await toolbar(page).getByRole('button', { name: 'Stop', exact: true }).click();
  const inspector = await select(t, 'sales');
  await inspector.getByLabel('parallelism', { exact: true }).fill('4');
  await stepDone(t, 2);
  await speed(page, 'Max');
  await runToEnd(t);
  await stepDone(t, 3);
  await stepDone(t, 4);
}, LONG);

test('lessons 8: state TTL', async (t) => {
  const page = await openLesson(t, 'State TTL');
  await speed(page, '500 / s');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 8);
  await setField(t, 'paid', 'ttlMs', '2000');
  await stepDone(t, 2);
  await runToEnd(t);
  await stepDone(t, 3);
}, LONG);

test('lessons 9: bronze, silver, gold and a replay after the fix', async (t) => {
  const page = await openLesson(t, 'Bronze → silver → gold');
  await runToEnd(t);
  await stepDone(t, 1);
  await bothLanguages(t, 9);
  const inspector = await select(t, 'clean');
  const boxes = inspector.getByRole('textbox');
  let fixed = false;
  for (let i = 0; i < (await boxes.count()) && !fixed; i++) {
    if ((await boxes.nth(i).inputValue()) === 'TRIM(city)') {
      await boxes.nth(i).fill('UPPER(TRIM(city))');
      await boxes.nth(i).press('Tab');
      fixed = true;
    }
  }
  t.expect(fixed, 'the city expression TRIM(city) is editable in the Inspector');
  await stepDone(t, 2);
  await runToEnd(t);
  await stepDone(t, 3);
  const fixedDoc = JSON.parse(JSON.stringify(lessonDoc(9)).replace('"TRIM(city)"', '"UPPER(TRIM(city))"'));
  const taipei = runPipeline(fixedDoc).views.gold.find((r) => r.city === 'TAIPEI');
  t.expect(taipei, 'the Node engine finds TAIPEI in gold');
  await answer(t, 4, String(taipei!.revenue_twd));
  await stepDone(t, 4);
  await page.waitForTimeout(100);
}, LONG);

test('lessons 10: export to Flink SQL; progress survives a reload; glossary tooltip opens its lesson', async (t) => {
  const page = await openLesson(t, 'From prototype to cluster');
  await bothLanguages(t, 10);
  await page.getByRole('button', { name: 'Flink SQL', exact: true }).click();
  await stepDone(t, 1);
  await page.keyboard.press('Escape');
  const inserts = (exportFlinkSql(lessonDoc(10)).sql.match(/^\s*INSERT INTO/gim) ?? []).length;
  await answer(t, 2, String(inserts));
  await stepDone(t, 2);

  const term = panel(page).getByRole('button', { name: 'watermark', exact: true }).first();
  await panel(page).getByRole('button', { name: 'Step 2, done' }).click();
  await term.hover();
  const tip = page.getByRole('tooltip').filter({ hasText: 'A promise that no record older' });
  await t.expectVisible(tip);
  await t.screenshot('lesson-glossary-tooltip-en');
  t.expect((await term.getAttribute('aria-describedby')) === (await tip.getAttribute('id')), 'the term is described by its tooltip');
  await tip.getByRole('link', { name: 'Lesson 4: Windows and watermarks' }).click();
  await t.expectVisible(panel(page).getByRole('heading', { name: 'Windows and watermarks' }));

  await page.waitForTimeout(300);
  await page.reload();
  await openApp(t);
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  const item = page.getByRole('list', { name: 'All lessons' }).getByRole('listitem').filter({ hasText: 'From prototype to cluster' });
  await t.expectText(item, 'Completed');
  const windows = page.getByRole('list', { name: 'All lessons' }).getByRole('listitem').filter({ hasText: 'Windows and watermarks' });
  await t.expectText(windows, '0 of 4 checks passed');
  await t.screenshot('lessons-home-en');
  await page.locator('select.header-lang').selectOption('zh-TW');
  await t.expectText(page.getByRole('list', { name: '所有課程' }).getByRole('listitem').filter({ hasText: '從原型到 cluster' }), '已完成');
  await t.screenshot('lessons-home-zh-TW');
}, LONG);
