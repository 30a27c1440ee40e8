// The SQL tab: a pasted Flink SQL script (the medallion seed) becomes the canvas; nodes and
// statements select each other; a mistake is underlined with the planner's message.
import { test } from '../harness.ts';
import { node, openBlank } from './designer-helpers.spec.ts';
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

  // The canvas holds one node per operator of the script.
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.expectCount(page.locator('.react-flow__node'), Object.keys(spans).length);
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
  const typed = Date.now();
  await page.keyboard.type('x');
  const squiggle = page.locator('.sql-tab .squiggly-error');
  await t.expectVisible(squiggle.first(), 30_000);
  console.log(`  keystroke to underline: ${Date.now() - typed} ms (200 ms of it the typing debounce)`);
  await t.waitFor('Apply to be disabled', async () => !(await apply.isEnabled()));
  await t.expectText(page.locator('.sql-bar-reason'), /order_wide_table_silverx: is not a table or view defined above/);
  const wavy = await squiggle.first().boundingBox();
  t.expect(wavy, 'the underline has a box');
  await page.mouse.move(wavy!.x + wavy!.width / 2, wavy!.y - 40);
  await page.mouse.move(wavy!.x + wavy!.width / 2, wavy!.y + wavy!.height / 2, { steps: 4 });
  await t.expectVisible(page.locator('.monaco-hover').filter({ hasText: /order_wide_table_silverx: is not a table or view defined above/ }).first(), 15_000);
  await t.screenshot('designer-sql-error');
}, { timeoutMs: 150_000 });
