// Projects and sharing: autosave across reloads, export/import round trip, share links, trust prompt.
import { readFileSync } from 'node:fs';
import { test } from '../harness.ts';
import { currentDocument, dragKind, openApp, openBlank } from './designer-helpers.spec.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A small pipeline whose map carries code, as if it came from someone else. */
const WITH_CODE = {
  format: 'weir/pipeline',
  version: 1,
  name: 'from a stranger',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ n: 1 }, { n: 2 }] }, position: { x: 0, y: 0 } },
    { id: 'twice', kind: 'map', params: { code: '(row) => ({ n: row.n * 2 })' }, position: { x: 280, y: 0 } },
    { id: 'out', kind: 'collectSink', params: {}, position: { x: 560, y: 0 } },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'twice', port: 'in' } },
    { from: { node: 'twice', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
};

test('designer projects: export, reload, import gives an identical document; autosave survives the reload', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 140, 120);
  await dragKind(t, 'Filter', 420, 120);
  await page.getByRole('textbox', { name: 'where', exact: true }).fill('id > 0');
  const before = await currentDocument(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  const exported = JSON.parse(readFileSync((await file.path())!, 'utf8'));
  t.expect(same(exported, before), 'the downloaded file is the document');

  await page.waitForTimeout(600); // autosave is debounced
  await page.reload();
  await openApp(t);
  t.expect(same(await currentDocument(page), before), 'the project reopened after the reload');

  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: /Blank pipeline/ }).click();
  await t.expectCount(page.locator('.react-flow__node'), 0);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'pipeline.weir.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await t.expectCount(page.locator('.react-flow__node'), 2);
  t.expect(same(await currentDocument(page), exported), 'the imported document equals the exported one');

  await page.getByRole('button', { name: 'Projects' }).click();
  const list = page.getByRole('list', { name: 'Saved projects' });
  await t.expectVisible(list);
  t.expect((await list.getByRole('listitem').count()) >= 3, 'every opened document is a saved project');
});

test('designer projects: a share link round-trips the document and asks for trust before running its code', async (t) => {
  const page = await openApp(t);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'stranger.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(WITH_CODE)) });
  await t.expectCount(page.locator('.react-flow__node'), 3);
  t.expect(same(await currentDocument(page), WITH_CODE), 'imported as is');

  // Imported code does not run until trusted.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Run code from this pipeline?' });
  await t.expectVisible(prompt);
  await t.expectText(prompt, 'twice.code');
  await t.screenshot('designer-trust-prompt');
  await prompt.getByRole('button', { name: 'Don’t run' }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), 'Not running');

  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  t.expect(link.includes('#doc='), `a share link carries the document in its hash: ${link.slice(0, 80)}`);
  await page.keyboard.press('Escape');

  const other = await page.context().newPage();
  await other.goto(link);
  await t.expectVisible(other.locator('body[data-ready="true"]'));
  await t.waitFor('the shared pipeline to open', async () => (await other.locator('.react-flow__node').count()) === 3);
  t.expect(same(await currentDocument(other), WITH_CODE), 'the link opens the same document');
  t.expect(!other.url().includes('#doc='), 'the hash is cleared once the link is opened');
  await other.getByRole('button', { name: 'Run', exact: true }).click();
  const prompt2 = other.getByRole('dialog', { name: 'Run code from this pipeline?' });
  await t.expectVisible(prompt2);
  await prompt2.getByRole('button', { name: 'Trust and run' }).click();
  await t.expectText(other.getByRole('status', { name: 'Run status' }), /Finished/, 30_000);
  await other.getByRole('tab', { name: 'Results' }).click();
  await t.expectText(other.getByRole('table', { name: 'Rows of out' }), '4');
}, { timeoutMs: 90_000 });

test('designer projects: a pipeline file dropped on the canvas opens, and its code waits for trust', async (t) => {
  const page = await openApp(t);
  const data = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.weir.json', { type: 'application/json' }));
    return dt;
  }, JSON.stringify(WITH_CODE));
  await page.dispatchEvent('.canvas', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('.canvas', 'drop', { dataTransfer: data });
  await t.waitFor('the dropped pipeline to open', async () => same(await currentDocument(page), WITH_CODE));
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await t.expectVisible(page.getByRole('dialog', { name: 'Run code from this pipeline?' }));
});
