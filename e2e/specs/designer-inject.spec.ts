// Injecting a record into a running job from a source's inspector: a form built from the source's
// columns, per-field errors for wrong values, and the record reaching the sink once.
import { test } from '../harness.ts';
import { importDoc, node } from './designer-helpers.spec.ts';

const DOC = {
  format: 'weir/pipeline',
  version: 1,
  name: 'inject (e2e)',
  nodes: [
    {
      id: 'sales',
      kind: 'inlineSource',
      params: {
        rows: [1, 2, 3, 4, 5, 6].map((i) => ({ city: i % 2 ? 'Paris' : 'Lyon', amount: i, ts: i * 1000 })),
        schema: { city: 'string', amount: 'integer', ts: 'timestamp' },
        eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 },
      },
      position: { x: 0, y: 100 },
    },
    { id: 'totals', kind: 'aggregate', params: { groupBy: ['city'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] }, position: { x: 300, y: 100 } },
    { id: 'view', kind: 'viewSink', params: { primaryKey: ['city'] }, position: { x: 600, y: 100 } },
  ],
  edges: [
    { id: 'sales-totals', from: { node: 'sales', port: 'out' }, to: { node: 'totals', port: 'in' } },
    { id: 'totals-view', from: { node: 'totals', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

test('inject: a record typed into the source form of a paused job reaches the sink once', async (t) => {
  const page = await importDoc(t, DOC, 'sales');
  await node(page, 'sales').locator('.op-label').click();
  const form = page.getByRole('form', { name: 'Record to inject into sales' });
  await t.expectVisible(form);
  t.expect(await form.getByRole('button', { name: 'Inject record' }).isDisabled(), 'nothing to inject into before the job runs');

  // Paused after one record.
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('record');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  await t.expectText(status, /Paused/);

  // Wrong values are named per field, and nothing is sent.
  await form.getByRole('textbox', { name: /^city/ }).fill('Nice');
  await form.getByRole('textbox', { name: /^amount/ }).fill('4.5');
  await form.getByRole('button', { name: 'Inject record' }).click();
  await t.expectText(form, '“4.5” is not a whole number.');
  await t.expectText(form, 'Required: the source places the record in event time by this field.');
  await t.screenshot('inject-form-errors');

  await form.getByRole('textbox', { name: /^amount/ }).fill('100');
  await form.getByRole('textbox', { name: /^ts/ }).fill('2500');
  await form.getByRole('button', { name: 'Inject record' }).click();
  await t.expectText(form.getByRole('status'), 'Injected {"city":"Nice","amount":100,"ts":2500}');
  t.expect((await form.getByRole('textbox', { name: /^amount/ }).inputValue()) === '', 'the form clears once the record is in');
  await t.screenshot('inject-form-done');

  // The next step reads the injected record before the source's own next row, and counts it.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await t.expectText(status, /Paused · 2 records/);
  await t.expectText(node(page, 'totals'), /in 2/);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of view' });

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status, /Finished · 7 records/, 20_000);
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  await t.expectCount(rows, 3);
  await t.expectText(rows.filter({ hasText: 'Nice' }), '100');
  await t.expectText(rows.filter({ hasText: 'Paris' }), '9');
  await t.screenshot('inject-run-finished');
  t.expect(await form.getByRole('button', { name: 'Inject record' }).isDisabled(), 'a finished job takes no more records');
  await t.expectText(page.locator('.section', { has: form }), 'The job has ended; run the pipeline again to inject records into it.');

  // zh-TW: the form and its errors are translated.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await t.expectText(page.locator('.section', { has: form.or(page.getByRole('form', { name: '要注入 sales 的紀錄' })) }), '注入一筆紀錄');
  await t.screenshot('inject-zh-TW');
}, { timeoutMs: 90_000 });

test('inject: a wrong value is named under its field while typing, before anything is sent', async (t) => {
  const page = await importDoc(t, DOC, 'sales');
  await node(page, 'sales').locator('.op-label').click();
  const form = page.getByRole('form', { name: 'Record to inject into sales' });
  await t.expectVisible(form);
  const amount = form.getByRole('textbox', { name: /^amount/ });
  await amount.fill('4.5');
  await t.expectText(form, '“4.5” is not a whole number.');
  t.expect((await amount.getAttribute('aria-invalid')) === 'true', 'the field is marked invalid');
  await form.getByRole('textbox', { name: /^ts/ }).fill('yesterday-ish');
  await t.expectText(form, /yesterday-ish/);
  // An untouched event-time field is not an error yet; a fixed field loses its error at once.
  await amount.fill('4');
  await form.getByRole('textbox', { name: /^ts/ }).fill('');
  t.expect(!/not a whole number|Required/.test((await form.textContent()) ?? ''), `no error left: ${await form.textContent()}`);
  await t.screenshot('inject-typing');
});
