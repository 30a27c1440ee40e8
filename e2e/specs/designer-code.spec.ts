// User code and the document as text: TypeScript checking of UDFs in Monaco, and the Pipeline JSON tab.
import { test } from '../harness.ts';
import { connect, currentDocument, dragKind, openBlank, replaceMonacoText, select } from './designer-helpers.spec.ts';

test('designer code: a UDF with a type error shows a diagnostic and refuses to run; fixed, it runs', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 120, 140);
  await dragKind(t, 'Map', 400, 140);
  await dragKind(t, 'Materialized view', 660, 140);
  await connect(t, ['inlineSource_1', 'out'], ['map_1', 'in']);
  await connect(t, ['map_1', 'out'], ['viewSink_1', 'in']);
  const inspector = await select(t, 'map_1');
  const diagnostics = inspector.getByRole('status', { name: 'code diagnostics' });
  await t.expectText(diagnostics, 'No type errors', 30_000);

  // The inline source's default rows are { id, ts }: `row.price` does not exist on Row.
  await replaceMonacoText(page, 'code', '(row) => ({ ...row, total: row.price * 2 })');
  await t.expectText(diagnostics, /Property 'price' does not exist/, 30_000);
  await t.screenshot('designer-udf-type-error');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('tabpanel'), /TypeScript/);
  await t.expectText(page.getByRole('status', { name: 'Run status' }), 'Not running');
  await page.getByRole('tab', { name: 'Log' }).click();
  await t.expectText(page.getByRole('log', { name: 'Log' }), /not started: 1 TypeScript error/);

  await replaceMonacoText(page, 'code', '(row) => ({ ...row, double: row.id * 2 })');
  await t.expectText(diagnostics, 'No type errors', 30_000);
  const doc = (await currentDocument(page)) as { nodes: { id: string; params: { code?: string } }[] };
  t.expect(doc.nodes.find((n) => n.id === 'map_1')?.params.code === '(row) => ({ ...row, double: row.id * 2 })', 'the editor writes the code into the document');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 20_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of viewSink_1' });
  await t.expectText(table.getByRole('columnheader', { name: 'double' }), 'double');
  await t.expectText(table.getByRole('row').nth(1), /1\s*0\s*2/);
}, { timeoutMs: 120_000 });

test('designer code: edits in the Pipeline JSON tab show on the canvas; invalid JSON changes nothing', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 160, 160);
  const doc = (await currentDocument(page)) as { nodes: { id: string; position?: unknown; label?: string }[]; edges: unknown[] };
  doc.nodes[0].label = 'edited in JSON';
  doc.nodes.push({ ...structuredClone(doc.nodes[0]), id: 'second', label: 'added in JSON', position: { x: 160, y: 320 } } as (typeof doc.nodes)[number]);
  await page.getByRole('tab', { name: 'Pipeline JSON' }).click();
  const status = page.getByRole('status', { name: 'JSON status' });
  await t.expectVisible(page.locator('.json-editor .monaco-editor .view-lines'), 30_000);
  await replaceMonacoText(page, 'Pipeline JSON', JSON.stringify(doc, null, 2));
  await t.expectText(status, 'Applied to the canvas');
  await t.screenshot('designer-json-tab');
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.expectCount(page.locator('.react-flow__node'), 2);
  await t.expectText(page.locator('.react-flow__node[data-id="second"]'), 'added in JSON');
  await t.expectText(page.locator('.react-flow__node[data-id="inlineSource_1"]'), 'edited in JSON');

  await page.getByRole('tab', { name: 'Pipeline JSON' }).click();
  await replaceMonacoText(page, 'Pipeline JSON', '{ "format": "weir/pipeline", "nodes": [ ');
  await t.expectText(status, /Not applied/);
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await t.expectCount(page.locator('.react-flow__node'), 2);
});
