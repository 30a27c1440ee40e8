// The SQL tab: a pasted Flink SQL script (the medallion seed) becomes the canvas; nodes and
// statements select each other; a mistake is underlined with the planner's message.
import { test } from '../harness.ts';
import type { Page } from 'playwright-core';
import type { TestContext } from '../harness.ts';
import { currentDocument, node, openApp, openBlank, openExample } from './designer-helpers.spec.ts';
import { MEDALLION_SQL } from '../../src/testing/sql/seedScripts.ts';
import { planFlinkSql } from '../../src/import/flinkSql/index.ts';

test('designer sql: paste a seed script, apply it, link nodes and spans, see a mistake underlined', async (t) => {
  const page = await openBlank(t);
  const { spans } = planFlinkSql(MEDALLION_SQL);
  const joinId = 'order_wide_table_silver_join';
  t.expect(spans[joinId], `the planner gives ${joinId} a span`);
  const spanLineText = MEDALLION_SQL.split('\n')[spans[joinId].line - 1].trim();

  // Pasted outside any field, a script opens in the SQL tab.
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, MEDALLION_SQL);
  await t.expectVisible(page.getByRole('tab', { name: 'SQL', selected: true }));
  await t.expectText(page.locator('.sql-tab .view-lines'), /Bronze:\sthe\sraw\sstreams/, 30_000);
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  const status = page.getByRole('status', { name: 'SQL status' });
  await t.waitFor('Apply to be enabled', () => apply.isEnabled(), 30_000);
  await t.expectText(status, /No errors/);
  await apply.click();
  await t.expectText(status, /Applied/);

  // The canvas holds one node per operator of the script, each tagged with its span.
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.expectCount(page.locator('.react-flow__node'), Object.keys(spans).length);
  const j = spans[joinId];
  await t.expectText(node(page, joinId).locator('.op-sql-span'), `SQL ${j.line}:${j.column}–${j.endLine}:${j.endColumn}`);
  await t.expectCount(page.locator('.react-flow__node .op-sql-span'), Object.keys(spans).length);
  await t.screenshot('designer-sql-canvas');

  // Selecting a node highlights its span in the SQL tab.
  await node(page, joinId).locator('.op-label').click();
  await page.getByRole('tab', { name: 'SQL' }).click();
  const highlight = page.locator('.sql-tab .sql-span-hl');
  await t.expectVisible(highlight.first(), 30_000);
  const first = page.locator('.sql-tab .view-line').filter({ hasText: new RegExp(`^${spanLineText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}`) }).first();
  const lineBox = await first.boundingBox();
  const boxes = await Promise.all((await highlight.all()).map((h) => h.boundingBox()));
  t.expect(lineBox && boxes.some((b) => b && Math.abs(b.y - lineBox.y) < 4), `a highlight sits on line ${spans[joinId].line} ("${spanLineText}")`);
  await t.screenshot('designer-sql-span');

  // Putting the cursor in a statement selects its node.
  await page.getByRole('tab', { name: 'SQL' }).press('Escape');
  await t.expectCount(highlight, 0);
  await first.click();
  await t.expectVisible(highlight.first());
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.waitFor(`the ${joinId} node to be selected`, () => node(page, joinId).evaluate((el) => el.classList.contains('selected')));

  // A mistake is underlined, its message shows on hover, and Apply says why it is disabled.
  await page.getByRole('tab', { name: 'SQL' }).click();
  await page.locator('.sql-tab .view-line').first().click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.locator('.sql-tab .view-line').filter({ hasText: /^FROM\sorder_wide_table_silver$/ }).last().click();
  await page.keyboard.press('End');
  const squiggle = page.locator('.sql-tab .squiggly-error');
  const ms = await keystrokeToUnderline(t, page, 'x');
  console.log(`  keystroke to underline: ${ms.toFixed(0)} ms in the page (the first check of an edit)`);
  await t.waitFor('Apply to be disabled', async () => !(await apply.isEnabled()));
  await t.expectText(page.locator('.sql-bar-reason'), /order_wide_table_silverx: is not a table or view defined above/);
  const wavy = await squiggle.first().boundingBox();
  t.expect(wavy, 'the underline has a box');
  await page.mouse.move(wavy!.x + wavy!.width / 2, wavy!.y - 40);
  await page.mouse.move(wavy!.x + wavy!.width / 2, wavy!.y + wavy!.height / 2, { steps: 4 });
  await t.expectVisible(page.locator('.monaco-hover').filter({ hasText: /order_wide_table_silverx: is not a table or view defined above/ }).first(), 15_000);
  await t.screenshot('designer-sql-error');
}, { timeoutMs: 150_000 });

/**
 * Types one key in the focused editor and measures, inside the page, from the keydown to the
 * first error underline in the DOM (a MutationObserver), so the test runner's round trips are not counted.
 */
async function keystrokeToUnderline(t: TestContext, page: Page, key: string): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __keyLatency?: { down: number; shown: number } };
    const m = { down: 0, shown: 0 };
    w.__keyLatency = m;
    document.addEventListener('keydown', () => void (m.down ||= performance.now()), { capture: true, once: true });
    const obs = new MutationObserver(() => {
      if (m.down && !m.shown && document.querySelector('.sql-tab .squiggly-error')) {
        m.shown = performance.now();
        obs.disconnect();
      }
    });
    obs.observe(document.querySelector('.sql-tab')!, { subtree: true, childList: true, attributes: true });
  });
  await page.keyboard.type(key);
  await t.expectVisible(page.locator('.sql-tab .squiggly-error').first(), 30_000);
  return page.evaluate(() => {
    const m = (window as unknown as { __keyLatency: { down: number; shown: number } }).__keyLatency;
    return m.shown - m.down;
  });
}

test('designer sql: applied spans survive a reload; the SQL tab links them and shows a typo underlined fast', async (t) => {
  const page = await openBlank(t);
  const { spans } = planFlinkSql(MEDALLION_SQL);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, MEDALLION_SQL);
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await t.waitFor('Apply to be enabled', () => apply.isEnabled(), 30_000);
  await apply.click();
  await t.expectText(page.getByRole('status', { name: 'SQL status' }), /Applied/);
  const doc = (await currentDocument(page)) as { origin?: { sql: string }; nodes: { id: string; origin?: { sql: unknown } }[] };
  t.expect(doc.origin?.sql === MEDALLION_SQL, 'the document keeps the applied script');
  t.expect(doc.nodes.every((n) => JSON.stringify(n.origin?.sql) === JSON.stringify(spans[n.id])), 'every node keeps its span');

  await page.waitForTimeout(600); // autosave is debounced
  await page.reload();
  await openApp(t);
  await t.expectCount(page.locator('.react-flow__node .op-sql-span'), Object.keys(spans).length);

  // After the reload the tab shows the applied script, not the exporter's, and still links it.
  const sink = 'order_wide_table_silver';
  await node(page, sink).locator('.op-label').click();
  await t.expectVisible(page.getByRole('button', { name: 'Show in SQL tab' }));
  await page.getByRole('button', { name: 'Show in SQL tab' }).click();
  // The person's own text (the exporter writes no `-- Gold 1` comment), scrolled to the sink's INSERT.
  await t.expectText(page.locator('.sql-tab .view-lines'), /--\sGold\s1:\sthe\scities\sranked/, 30_000);
  await t.expectVisible(page.locator('.sql-tab .sql-span-hl').first(), 30_000);
  await t.expectText(page.getByRole('status', { name: 'SQL status' }), /No errors|canvas/, 30_000);
  await t.screenshot('designer-sql-after-reload');

  // A later keystroke, with the planner warm, is underlined well within a frame budget or two.
  await page.locator('.sql-tab .view-line').nth(6).click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.locator('.sql-tab .view-line').filter({ hasText: /^FROM\sorder_wide_table_silver$/ }).last().click();
  await page.keyboard.press('End');
  const cold = await keystrokeToUnderline(t, page, 'x');
  await page.keyboard.press('Backspace');
  await t.waitFor('the underline to go', async () => (await page.locator('.sql-tab .squiggly-error').count()) === 0, 30_000);
  // Each edit is planned once: the render an edit causes does not ask the worker again.
  await page.evaluate(() => {
    const w = window as unknown as { __sqlChecks: number };
    w.__sqlChecks = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, msg: unknown, ...rest: never[]) {
      if (msg && typeof msg === 'object' && 'sql' in msg) w.__sqlChecks++;
      return post.call(this, msg, ...rest);
    } as typeof post;
  });
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    warm.push(await keystrokeToUnderline(t, page, 'x'));
    await page.keyboard.press('Backspace');
    await t.waitFor('the underline to go', async () => (await page.locator('.sql-tab .squiggly-error').count()) === 0, 30_000);
  }
  const checks = await page.evaluate(() => (window as unknown as { __sqlChecks: number }).__sqlChecks);
  t.expect(checks > 0 && checks <= 10, `10 edits asked the SQL worker for ${checks} checks, at most one each`);
  warm.sort((a, b) => a - b);
  console.log(`  keystroke to underline after a reload: first ${cold.toFixed(0)} ms, then ${warm.map((m) => m.toFixed(0)).join(', ')} ms (median ${warm[2].toFixed(0)} ms)`);
}, { timeoutMs: 150_000 });

test('designer sql: the gallery\'s SQL example links its script, runs, and shows its view', async (t) => {
  const page = await openExample(t, /Flink SQL: silver and gold layers/, 'order_wide_table_silver_join');
  const { spans } = planFlinkSql(MEDALLION_SQL);
  await t.expectCount(page.locator('.react-flow__node .op-sql-span'), Object.keys(spans).length);
  await node(page, 'order_wide_table_silver_join').locator('.op-label').click();
  await page.getByRole('tab', { name: 'SQL' }).click();
  await t.expectVisible(page.locator('.sql-tab .sql-span-hl').first(), 30_000);
  await page.getByRole('tab', { name: 'Canvas' }).click();

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 60_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: /^Rows of / }).first();
  await t.expectVisible(table, 30_000);
  t.expect((await table.getByRole('row').filter({ has: page.getByRole('cell') }).count()) > 0, 'the view has rows');
  await t.screenshot('designer-sql-example-run');
}, { timeoutMs: 150_000 });
