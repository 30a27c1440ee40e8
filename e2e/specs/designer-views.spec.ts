// The main views as screenshots, plus a scale promise: 100,000 rows stay fast (200 nodes: designer-scale.spec.ts).
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { node, openApp } from './designer-helpers.spec.ts';

async function importDoc(t: TestContext, doc: unknown): Promise<void> {
  const chooser = t.page.waitForEvent('filechooser');
  await t.page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'doc.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
}

test('designer views: running example, inspector, JSON tab and dark theme', async (t) => {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: /Open example Orders/ }).click();
  await t.expectVisible(node(page, 'paid'));
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Running · [1-9]/);
  await page.waitForTimeout(800);
  await t.screenshot('designer-running-example');
  await page.getByRole('button', { name: 'Pause' }).click();
  await node(page, 'paid').locator('.op-label').click();
  const idField = page.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'id', exact: true });
  await t.waitFor('the join inspector', async () => (await idField.inputValue().catch(() => '')) === 'paid');
  await t.screenshot('designer-inspector');
  await page.getByRole('tab', { name: 'Pipeline JSON' }).click();
  await t.expectVisible(page.locator('.json-editor .monaco-editor .view-lines'), 30_000);
  await t.screenshot('designer-json-view');
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await t.expectVisible(page.locator('html[data-theme="dark"]'));
  await t.screenshot('designer-dark-theme');
  await page.keyboard.press('?');
  await t.expectVisible(page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
  await page.waitForTimeout(300); // let the fade-in finish
  await t.screenshot('designer-help-overlay');
}, { timeoutMs: 90_000 });

test('designer views: the system dark preference is followed on first load', async (t) => {
  await t.page.emulateMedia({ colorScheme: 'dark' });
  const page = await openApp(t);
  await t.expectVisible(page.locator('html[data-theme="dark"]'));
});

// The 200-node drag lives in designer-scale.spec.ts.

test('designer views: a sink with 100,000 rows scrolls to its last row', async (t) => {
  const page = await openApp(t);
  await importDoc(t, {
    format: 'weir/pipeline',
    version: 1,
    name: 'one hundred thousand',
    nodes: [
      { id: 'gen', kind: 'generatorSource', params: { scenario: 'orders', count: 100000, ratePerSec: 1000000 }, position: { x: 0, y: 0 } },
      { id: 'all', kind: 'collectSink', params: {}, position: { x: 300, y: 0 } },
    ],
    edges: [{ from: { node: 'gen', port: 'out' }, to: { node: 'all', port: 'in' } }],
  });
  await t.expectVisible(node(page, 'all'));
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 90_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  await t.expectText(page.getByRole('tabpanel'), '100,000 rows');
  const body = page.locator('.vtable-body');
  await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await t.expectText(page.getByRole('table', { name: 'Rows of all' }), /100000/);
  const rendered = await page.locator('.vtable-row').count();
  t.expect(rendered < 200, `only the visible rows are in the DOM (${rendered})`);
  await t.screenshot('designer-100k-rows');
}, { timeoutMs: 150_000 });
