// A CSV file dropped on the canvas becomes a file source: its inferred types are confirmed in the form, it runs,
// and its bad lines show up as dead letters with their line numbers.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { connect, dragKind, node, openBlank, openRunSettings, select, setTags } from './designer-helpers.spec.ts';

const CSV = 'user,amount,ok,ts\nann,12.5,true,2024-01-01T00:00:01Z\nbob,3,false,2024-01-01T00:00:02Z\nann,4,true,2024-01-01T00:00:03Z\nbad-line\ncy,lots,true,2024-01-01T00:00:04Z\n';

/** Drops a file on an element at a point, as a person dragging it from the desktop would. */
async function dropFile(page: Page, selector: string, at: { x: number; y: number } | null, name: string, text: string): Promise<void> {
  await page.locator(selector).first().evaluate((el, { name, text, at }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'text/csv' }));
    const box = el.getBoundingClientRect();
    const p = at ? { clientX: box.x + at.x, clientY: box.y + at.y } : { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
    el.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true, ...p }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, ...p }));
  }, { name, text, at });
}

async function droppedCsv(t: TestContext): Promise<Page> {
  const page = await openBlank(t);
  await dropFile(page, '.react-flow__pane', { x: 140, y: 140 }, 'sales.csv', CSV);
  await t.expectVisible(node(page, 'fileSource_1'));
  const inspector = t.page.getByRole('complementary', { name: 'Inspector' });
  const confirm = inspector.getByRole('group', { name: 'Confirm the inferred types' });
  await t.expectText(confirm, /Types inferred from the first 5 records of sales\.csv \(CSV\); 1 of them could not be read/);
  await t.expectText(confirm, 'line 5: expected 4 fields (as in the header), got 1');
  await t.expectText(inspector.getByTestId('file-source-status'), /sales\.csv \(1 KB\), kept in this browser/);
  const typeOf = (f: string) => confirm.getByRole('combobox', { name: `Type of ${f}` });
  t.expect((await typeOf('user').inputValue()) === 'string', 'user inferred as string');
  t.expect((await typeOf('amount').inputValue()) === 'string', 'amount inferred as string (one cell says "lots")');
  t.expect((await typeOf('ok').inputValue()) === 'boolean', 'ok inferred as boolean');
  t.expect((await typeOf('ts').inputValue()) === 'timestamp', 'ts inferred as timestamp');
  t.expect((await confirm.getByRole('combobox', { name: 'Event-time field' }).inputValue()) === 'ts', 'ts chosen as event time');
  // The person corrects amount to a number: "lots" will be a dead letter then.
  await typeOf('amount').selectOption('number');
  await confirm.getByRole('spinbutton', { name: 'Watermark delay (ms)' }).fill('1000');
  await t.screenshot('file-source-confirm-types');
  await confirm.getByRole('button', { name: 'Types look right' }).click();
  await t.expectHidden(confirm);
  await dragKind(t, 'Group by', 420, 140);
  await dragKind(t, 'Materialized view', 700, 140);
  await connect(t, ['fileSource_1', 'out'], ['aggregate_1', 'in']);
  await connect(t, ['aggregate_1', 'out'], ['viewSink_1', 'in']);
  const agg = await select(t, 'aggregate_1');
  await setTags(agg, 'groupBy', ['user']);
  return page;
}

test('file source: a CSV dropped on the canvas is confirmed, runs, and its bad lines are dead letters with line numbers', async (t) => {
  const page = await droppedCsv(t);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 30_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of viewSink_1' });
  await t.expectText(table, 'ann');
  await t.expectText(table, 'bob');
  await t.expectCount(table.getByRole('row'), 3);
  await t.expectText(node(page, 'fileSource_1').locator('.op-dead'), '2');
  await t.screenshot('file-source-run');
  await page.getByRole('tab', { name: 'Log' }).click();
  const log = page.getByRole('log', { name: 'Log' });
  await t.expectText(log, 'dead letter: line 5: expected 4 fields (as in the header), got 1');
  await t.expectText(log, 'dead letter: line 6: field "amount": expected number, got "lots" (string)');
  await t.screenshot('file-source-dead-letters');

  // After a reload the file is read again from IndexedDB: no need to drop it a second time.
  await page.reload();
  await t.expectVisible(node(page, 'fileSource_1'));
  const inspector = await select(t, 'fileSource_1');
  await t.expectText(inspector.getByTestId('file-source-status'), /sales\.csv \(1 KB\), kept in this browser/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 30_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  await t.expectText(page.getByRole('table', { name: 'Rows of viewSink_1' }), 'bob');
}, { timeoutMs: 150_000 });

test('file source: on Web Workers the file is read in the source\'s worker, with the same rows and dead letters', async (t) => {
  const page = await droppedCsv(t);
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('2');
  await page.getByRole('combobox', { name: 'Run in', exact: true }).selectOption({ label: 'Web Workers' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished .*2 Web Workers/, 30_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of viewSink_1' });
  await t.expectText(table, 'ann');
  await t.expectText(table, 'bob');
  await t.expectCount(table.getByRole('row'), 3);
  await t.expectText(node(page, 'fileSource_1').locator('.op-dead'), '2');
  await page.getByRole('tab', { name: 'Log' }).click();
  const log = page.getByRole('log', { name: 'Log' });
  await t.expectText(log, 'dead letter: line 5: expected 4 fields (as in the header), got 1');
  await t.expectText(log, 'dead letter: line 6: field "amount": expected number, got "lots" (string)');
}, { timeoutMs: 150_000 });

test('file source: a file dropped onto a source replaces its data; the picker is a button', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 160, 160);
  await dropFile(page, '.react-flow__node[data-id="inlineSource_1"]', null, 'events.jsonl', '{"k":"a","n":1}\n{"k":"b","n":2}\nnot json\n');
  const inspector = t.page.getByRole('complementary', { name: 'Inspector' });
  const confirm = inspector.getByRole('group', { name: 'Confirm the inferred types' });
  await t.expectText(confirm, /first 3 records of events\.jsonl \(JSONL\); 1 of them could not be read/);
  t.expect((await page.locator('.react-flow__node').count()) === 1, 'no new node: the source under the drop reads the file');
  await t.screenshot('file-source-replaced-inline');
  // The picker is a real button: reachable by keyboard, Enter opens the file chooser.
  const chooser = page.waitForEvent('filechooser');
  const pick = inspector.getByRole('button', { name: 'Replace file…' });
  await pick.focus();
  await pick.press('Enter');
  await (await chooser).setFiles({ name: 'prices.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from('sym\tpx\tat\nA\t1.5\t1700000000000\n') });
  await t.expectText(confirm, /first 1 records of prices\.tsv \(CSV\); 0 of them/);
  t.expect((await confirm.getByRole('combobox', { name: 'Type of at' }).inputValue()) === 'timestamp', 'epoch-ms column "at" inferred as timestamp');
  await t.expectText(inspector.getByTestId('file-source-status'), /prices\.tsv/);
}, { timeoutMs: 90_000 });
