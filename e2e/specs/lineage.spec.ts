// Column lineage: pick a column of a view's table and the canvas shows every operator it passed through,
// with the expression at each step; pick a source column and it shows where that column goes.
import { test } from '../harness.ts';
import { node, openExample, select } from './designer-helpers.spec.ts';

async function zoomAt(page: import('playwright-core').Page, id: string): Promise<void> {
  const box = (await node(page, id).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
  await page.waitForTimeout(400); // the zoom animates
}

const badge = (page: import('playwright-core').Page, id: string) => page.getByRole('note', { name: `Lineage at ${id}`, exact: true });

test('lineage: a view column back to its source through joins and an aggregate, then a source column forward', async (t) => {
  const page = await openExample(t, /Open example Flink SQL: silver and gold/, 'product_sales_analysis_aggregate');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 30_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  await page.getByRole('tab', { name: 'product_sales_analysis' }).click();
  const table = page.getByRole('table', { name: 'Rows of product_sales_analysis' });
  const header = table.getByRole('columnheader', { name: 'total_sold' }).getByRole('button', { name: 'total_sold', exact: true });
  t.expect(/Show the lineage of column total_sold/.test((await header.getAttribute('title')) ?? ''), 'the header says what clicking it does');
  await header.click();
  t.expect((await header.getAttribute('aria-pressed')) === 'true', 'the header shows it is selected');

  // Backward: the aggregate, the renaming projection, the three joins, the orders source.
  await t.expectText(page.getByTestId('lineage-bar'), 'Lineage of product_sales_analysis.total_sold');
  await t.expectText(badge(page, 'product_sales_analysis_aggregate'), 'total_sold = SUM(quantity)');
  await t.expectText(badge(page, 'order_wide_table_silver_project'), 'quantity = qty');
  await t.expectText(badge(page, 'order_wide_table_silver_join'), 'qty = left.qty');
  await t.expectText(badge(page, 'orders'), 'qty · source column');
  // Tables that gave the column nothing step back.
  for (const id of ['customers', 'payments', 'city_sales_ranking_aggregate']) {
    t.expect(/lineage-off/.test((await node(page, id).locator('.op-node').getAttribute('class')) ?? ''), `${id} is dimmed`);
  }
  await t.expectCount(badge(page, 'customers'), 0);
  await t.screenshot('lineage-backward');
  // Close up, as a person would zoom in to read the steps.
  await zoomAt(page, 'order_wide_table_silver_project');
  await t.screenshot('lineage-backward-close');

  // Esc ends it.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await t.expectHidden(page.getByTestId('lineage-bar'));
  await t.expectCount(page.locator('.op-node.lineage-off'), 0);

  // Forward: from the inspector's column list of the orders source.
  await page.keyboard.press('Shift+Digit1');
  await page.waitForTimeout(400); // the fit animates
  const inspector = await select(t, 'orders');
  await inspector.getByRole('button', { name: 'qty', exact: true }).click();
  await t.expectText(page.getByTestId('lineage-bar'), 'Lineage of orders.qty');
  await t.expectText(badge(page, 'product_sales_analysis_aggregate'), 'total_sold = SUM(quantity)');
  await t.expectText(badge(page, 'order_wide_table_silver'), 'quantity');
  await t.expectText(badge(page, 'payment_method_stats_filter'), 'quantity');
  // Aggregated away where the payment stats group: that path stops at the step before.
  t.expect(/lineage-off/.test((await node(page, 'payment_method_stats_aggregate').locator('.op-node').getAttribute('class')) ?? ''), 'the payment aggregate does not read qty');
  await t.screenshot('lineage-forward');
  await zoomAt(page, 'payment_method_stats_filter');
  await t.screenshot('lineage-forward-close');

  // The clear button ends it too.
  await page.getByTestId('lineage-bar').getByRole('button', { name: /End the lineage highlight/ }).click();
  await t.expectHidden(page.getByTestId('lineage-bar'));

  // In the SQL tab, once the script is applied, a name in a statement shows its column's lineage (Alt+L).
  await page.getByRole('tab', { name: 'SQL' }).click();
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await t.waitFor('Apply to be enabled', () => apply.isEnabled(), 30_000);
  await apply.click();
  await t.expectText(page.getByRole('status', { name: 'SQL status' }), /Applied/);
  // Find puts the cursor inside the name, as a click on it would (the statement is far down the script).
  // After Apply the tab shows the script regenerated from the new canvas, which can land after the
  // search and put the cursor back at the top: then the search is made again, as a person would.
  const canvasTab = page.getByRole('tab', { name: 'Canvas', selected: true });
  for (let attempt = 1; attempt <= 3 && !(await canvasTab.isVisible()); attempt++) {
    await page.locator('.sql-tab .view-lines').click();
    await page.keyboard.press('Control+KeyF');
    await t.expectVisible(page.locator('.sql-tab .find-widget.visible'));
    await page.keyboard.press('Control+KeyA');
    await page.keyboard.type('SUM(`quantity`) AS `total_so');
    // The search runs a moment after the typing: Enter before it has a match would leave the cursor where it was.
    await t.expectText(page.locator('.sql-tab .find-widget .matchesCount'), /^1 of \d+$/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await t.expectHidden(page.locator('.sql-tab .find-widget.visible'));
    await page.keyboard.press('Alt+KeyL');
    await canvasTab.waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
  }
  await t.expectVisible(canvasTab);
  await t.expectText(page.getByTestId('lineage-bar'), 'Lineage of product_sales_analysis_aggregate.total_sold');
  await t.expectText(badge(page, 'order_wide_table_silver_project'), 'quantity = qty');
  await t.screenshot('lineage-from-sql');
}, { timeoutMs: 120_000 });
