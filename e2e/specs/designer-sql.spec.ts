// The SQL tab: a pasted Flink SQL script becomes the canvas; nodes and statements select each other;
// a mistake is underlined with the planner's message.
import { test } from '../harness.ts';
import { node, openBlank } from './designer-helpers.spec.ts';

const SCRIPT = `CREATE TABLE orders (
  order_id STRING,
  store_id STRING,
  amount DOUBLE,
  order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'orders.jsonl', 'format' = 'json');

CREATE TABLE sales_per_store (
  store_id STRING,
  total DOUBLE,
  PRIMARY KEY (store_id) NOT ENFORCED
) WITH ('connector' = 'print');

INSERT INTO sales_per_store
SELECT store_id, SUM(amount) AS total
FROM orders
WHERE amount > 0
GROUP BY store_id;
`;

test('designer sql: paste a script, apply it, link nodes and spans, see a mistake underlined', async (t) => {
  const page = await openBlank(t);
  // Pasted outside any field, a script opens in the SQL tab.
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, SCRIPT);
  await t.expectVisible(page.getByRole('tab', { name: 'SQL', selected: true }));
  await t.expectText(page.locator('.sql-tab .view-lines'), /CREATE\sTABLE\sorders/, 30_000);
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  const status = page.getByRole('status', { name: 'SQL status' });
  await t.waitFor('Apply to be enabled', () => apply.isEnabled(), 30_000);
  await t.expectText(status, /No errors/);
  await apply.click();
  await t.expectText(status, /Applied/);

  // The canvas holds one node per operator of the query.
  await page.getByRole('tab', { name: 'Canvas' }).click();
  for (const id of ['orders', 'sales_per_store_filter', 'sales_per_store_aggregate', 'sales_per_store']) await t.expectVisible(node(page, id));
  await t.screenshot('designer-sql-canvas');

  // Selecting a node highlights its span in the SQL tab.
  await node(page, 'sales_per_store_filter').locator('.op-label').click();
  await page.getByRole('tab', { name: 'SQL' }).click();
  const highlight = page.locator('.sql-tab .sql-span-hl');
  await t.expectVisible(highlight.first(), 30_000);
  const line18 = await page.locator('.sql-tab .view-line').filter({ hasText: /^WHERE\samount/ }).boundingBox();
  const box = await highlight.first().boundingBox();
  t.expect(line18 && box && Math.abs(box.y - line18.y) < 4, `the highlight sits on the WHERE line (highlight y ${box?.y}, line y ${line18?.y})`);
  await t.screenshot('designer-sql-span');

  // Putting the cursor in a statement selects its node.
  await page.locator('.sql-tab .view-line').filter({ hasText: /^CREATE\sTABLE\sorders/ }).click();
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.waitFor('the orders node to be selected', () => node(page, 'orders').evaluate((el) => el.classList.contains('selected')));

  // A mistake is underlined, its message shows on hover, and Apply says why it is disabled.
  await page.getByRole('tab', { name: 'SQL' }).click();
  await page.locator('.sql-tab .view-line').filter({ hasText: /^FROM\sorders/ }).click();
  await page.keyboard.press('End');
  await page.keyboard.type('z');
  const squiggle = page.locator('.sql-tab .squiggly-error');
  await t.expectVisible(squiggle.first(), 30_000);
  await t.waitFor('Apply to be disabled', async () => !(await apply.isEnabled()));
  await t.expectText(page.locator('.sql-bar-reason'), /ordersz: is not a table or view defined above/);
  await squiggle.first().hover({ force: true });
  await t.expectText(page.locator('.monaco-hover').first(), /is not a table or view defined above/, 15_000);
  await t.screenshot('designer-sql-error');
}, { timeoutMs: 150_000 });
