// OVER windows with LAG, FIRST_VALUE and LAST_VALUE: a pasted script becomes an over aggregate,
// its LAG row is edited in the generated form, and the SQL tab writes the edit back.
import { test } from '../harness.ts';
import { currentDocument, openBlank, select } from './designer-helpers.spec.ts';
import { READINGS_DDL } from '../../src/testing/sql/data.ts';

const SCRIPT = `${READINGS_DDL}CREATE TABLE temp_changes (sensor STRING, temp DOUBLE, prev_temp DOUBLE, temp_2_back DOUBLE, first_temp DOUBLE) WITH ('connector' = 'print');
INSERT INTO temp_changes
SELECT sensor, temp,
  LAG(temp) OVER w AS prev_temp,
  LAG(temp, 2, CAST(-1 AS DOUBLE)) OVER w AS temp_2_back,
  FIRST_VALUE(temp) OVER w AS first_temp
FROM readings
WINDOW w AS (PARTITION BY sensor ORDER BY ts);
`;

type Doc = { nodes: { id: string; kind: string; params: { aggregates?: Record<string, unknown>[] } }[] };
const overNode = async (page: Parameters<typeof currentDocument>[0]) => ((await currentDocument(page)) as Doc).nodes.find((n) => n.kind === 'overAggregate');

test('designer over: a LAG script plans into an over aggregate, its offset edits in the form and back into the SQL', async (t) => {
  const page = await openBlank(t);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, SCRIPT);
  await t.expectVisible(page.getByRole('tab', { name: 'SQL', selected: true }));
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await t.waitFor('Apply to be enabled', () => apply.isEnabled(), 30_000);
  await apply.click();
  await t.expectText(page.getByRole('status', { name: 'SQL status' }), /Applied/);
  await page.getByRole('tab', { name: 'Canvas' }).click();

  const over = await overNode(page);
  t.expect(over, 'the script has an over aggregate');
  t.expect(JSON.stringify(over!.params.aggregates?.map((c) => [c.fn, c.offset, c.default])) === JSON.stringify([['lag', null, null], ['lag', 2, -1], ['firstValue', null, null]].map((r) => r.map((x) => x ?? undefined))), `LAG, LAG(…, 2, -1) and FIRST_VALUE planned, got ${JSON.stringify(over!.params.aggregates)}`);

  const inspector = await select(t, over!.id);
  const lag2 = inspector.getByRole('group', { name: 'aggregates 2' });
  const fn = lag2.getByRole('combobox', { name: 'fn', exact: true });
  await t.waitFor('the second row to read fn lag', async () => (await fn.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)) === 'lag');
  const offset = lag2.getByRole('textbox', { name: 'offset', exact: true });
  await t.waitFor('offset to show 2', async () => (await offset.inputValue()) === '2');
  // offset and default show only for lag.
  await t.expectCount(inspector.getByRole('group', { name: 'aggregates 3' }).getByRole('textbox', { name: 'offset', exact: true }), 0);
  await t.screenshot('designer-over-lag-form');

  await offset.fill('3');
  await t.waitFor('the document to hold offset 3', async () => (await overNode(page))?.params.aggregates?.[1].offset === 3);
  await t.expectText(page.getByRole('tabpanel'), 'No problems');
  await page.getByRole('tab', { name: 'SQL' }).click();
  await t.expectText(page.locator('.sql-tab .view-lines'), /LAG\(`temp`,\s3,\sCAST\(-1\sAS\sDOUBLE\)\)/, 30_000);
  await t.screenshot('designer-over-lag-sql');
}, { timeoutMs: 120_000 });
