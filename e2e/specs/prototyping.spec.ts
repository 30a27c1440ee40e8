// Your own data and pipeline tests: drop a CSV on an inline source, run it; record a test, break the pipeline, see the diff.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { connect, dragKind, openBlank, select, setTags } from './designer-helpers.spec.ts';

const CSV = 'user,amount,ts\nann,12.5,2024-01-01T00:00:01Z\nbob,3,2024-01-01T00:00:02Z\nann,4,2024-01-01T00:00:03Z\nbad-line\n';

/** A blank pipeline with an inline source fed by a CSV file dropped on it, into a GROUP BY and a view. */
async function csvPipeline(t: TestContext): Promise<Page> {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 120, 120);
  await dragKind(t, 'Group by', 400, 120);
  await dragKind(t, 'Materialized view', 680, 120);
  await connect(t, ['inlineSource_1', 'out'], ['aggregate_1', 'in']);
  await connect(t, ['aggregate_1', 'out'], ['viewSink_1', 'in']);
  const inspector = await select(t, 'inlineSource_1');
  // Drop the file as a person would drag it from the desktop.
  await page.locator('.source-drop').evaluate((el, csv) => {
    const dt = new DataTransfer();
    dt.items.add(new File([csv], 'sales.csv', { type: 'text/csv' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, CSV);
  await t.expectText(inspector, /3 rows read as CSV; 1 line\(s\) could not be read/);
  await t.expectText(inspector, 'line 5: expected 3 fields (as in the header), got 1');
  t.expect((await inspector.getByRole('combobox', { name: 'Type of amount' }).inputValue()) === 'number', 'amount inferred as number');
  t.expect((await inspector.getByRole('combobox', { name: 'Type of ts' }).inputValue()) === 'timestamp', 'ts inferred as timestamp');
  await inspector.getByRole('spinbutton', { name: 'Watermark delay (ms)' }).fill('1000');
  await t.screenshot('prototyping-csv-confirm-types');
  await inspector.getByRole('button', { name: 'Use these 3 rows' }).click();
  const agg = await select(t, 'aggregate_1');
  await setTags(agg, 'groupBy', ['user']);
  return page;
}

test('prototyping: a CSV dropped on an inline source runs with inferred types', async (t) => {
  const page = await csvPipeline(t);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 20_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of viewSink_1' });
  await t.expectText(table, 'ann');
  await t.expectText(table, 'bob');
  await t.screenshot('prototyping-csv-run');
}, { timeoutMs: 90_000 });

test('prototyping: record a test, break the pipeline, the test fails with a diff', async (t) => {
  const page = await csvPipeline(t);
  await page.getByRole('tab', { name: 'Tests' }).click();
  await page.getByRole('button', { name: 'Record test from run' }).click();
  await t.expectText(page.getByRole('tabpanel'), 'recorded test 1');
  await page.getByRole('button', { name: 'Run tests' }).click();
  await t.expectText(page.getByRole('tabpanel'), '1 passed, 0 failed', 20_000);
  await t.screenshot('prototyping-test-passes');
  // Break it: group by amount instead of user.
  const agg = await select(t, 'aggregate_1');
  await setTags(agg, 'groupBy', ['amount']);
  await page.getByRole('tab', { name: 'Tests' }).click();
  await page.getByRole('button', { name: 'Run tests' }).click();
  await t.expectText(page.getByRole('tabpanel'), '0 passed, 1 failed', 20_000);
  await t.expectText(page.locator('.test-diff'), /- \{"count|- \{/);
  await t.expectText(page.locator('.test-diff'), /sink viewSink_1 \(equals\)/);
  await t.screenshot('prototyping-test-fails-with-diff');
}, { timeoutMs: 120_000 });
