// Building on the canvas with the mouse only: palette drag, port wiring, inspector params, run.
import { test } from '../harness.ts';
import { addTag, connect, currentDocument, dragKind, dragWire, handle, node, openBlank, select, setTags } from './designer-helpers.spec.ts';

const ORDERS = [
  { order_id: 'o1', customer: 'ann', amount: 30, ts: 1000 },
  { order_id: 'o2', customer: 'bob', amount: 12, ts: 2000 },
  { order_id: 'o3', customer: 'cy', amount: 7, ts: 3000 },
];
const PAYMENTS = [
  { order_id: 'o1', method: 'card', ts: 1500 },
  { order_id: 'o2', method: 'cash', ts: 2500 },
];

test('designer: orders ⋈ payments built by dragging and wiring, run, sink shows the joined rows', async (t) => {
  const page = await openBlank(t);
  await t.screenshot('designer-empty-canvas');
  await dragKind(t, 'Inline rows', 120, 90);
  await dragKind(t, 'Inline rows', 120, 300);
  await dragKind(t, 'Join', 420, 190);
  await dragKind(t, 'Materialized view', 680, 190);
  t.expect((await page.locator('.react-flow__node').count()) === 4, 'four operators on the canvas');

  let inspector = await select(t, 'inlineSource_1');
  await inspector.getByRole('textbox', { name: 'rows', exact: true }).fill(JSON.stringify(ORDERS));
  inspector = await select(t, 'inlineSource_2');
  await inspector.getByRole('textbox', { name: 'rows', exact: true }).fill(JSON.stringify(PAYMENTS));
  await inspector.getByRole('textbox', { name: 'label', exact: true }).fill('payments');

  await connect(t, ['inlineSource_1', 'out'], ['join_1', 'left']);
  await connect(t, ['inlineSource_2', 'out'], ['join_1', 'right']);
  await connect(t, ['join_1', 'out'], ['viewSink_1', 'in']);

  inspector = await select(t, 'join_1');
  await inspector.getByRole('combobox', { name: 'type', exact: true }).selectOption('inner');
  await setTags(inspector, 'leftKey', ['order_id']);
  await setTags(inspector, 'rightKey', ['order_id']);
  await t.expectText(page.getByRole('tabpanel'), 'No problems');

  const doc = (await currentDocument(page)) as { edges: unknown[]; nodes: { id: string; params: Record<string, unknown> }[] };
  t.expect(doc.edges.length === 3, `three edges in the document, got ${doc.edges.length}`);
  t.expect(JSON.stringify(doc.nodes.find((n) => n.id === 'join_1')?.params.leftKey) === '["order_id"]', 'join leftKey set through the inspector');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Finished/, 20_000);
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: 'Rows of viewSink_1' });
  await t.expectCount(table.getByRole('row').filter({ has: page.getByRole('cell') }), 2);
  await t.expectText(table, 'card');
  await t.expectText(table, 'cash');
  const text = (await table.textContent()) ?? '';
  t.expect(!text.includes('o3'), 'the unpaid order o3 has no partner in an inner join');
  await t.expectText(node(page, 'join_1'), /in 5/);
  await t.screenshot('designer-orders-payments-run');
}, { timeoutMs: 90_000 });

test('designer: an invalid connection is refused with a tooltip saying why', async (t) => {
  const page = await openBlank(t);
  await dragKind(t, 'Inline rows', 120, 120);
  await dragKind(t, 'Process function', 460, 120);
  await dragKind(t, 'Filter', 460, 290);
  // A process function needs a keyed input; the raw source is not keyed.
  await dragWire(page, handle(page, 'inlineSource_1', 'out', 'out'), handle(page, 'process_1', 'in', 'in'), false);
  const tip = page.getByRole('tooltip');
  await t.expectText(tip, /needs a keyed stream/);
  await t.screenshot('designer-connection-refused');
  await page.mouse.up();
  await t.expectCount(page.locator('.react-flow__edge'), 0);
  // Output to output is refused too, and says so.
  await dragWire(page, handle(page, 'inlineSource_1', 'out', 'out'), handle(page, 'filter_1', 'out', 'out'), false);
  await t.expectText(tip, /Both ends are outputs/);
  await page.mouse.up();
  await t.expectCount(page.locator('.react-flow__edge'), 0);
  // A second stream into a one-input port.
  await dragKind(t, 'Inline rows', 120, 290);
  await connect(t, ['inlineSource_1', 'out'], ['filter_1', 'in']);
  await dragWire(page, handle(page, 'inlineSource_2', 'out', 'out'), handle(page, 'filter_1', 'in', 'in'), false);
  await t.expectText(tip, /takes one stream and already has one/);
  await page.mouse.up();
  await t.expectCount(page.locator('.react-flow__edge'), 1);
});

test('designer: undo and redo cover add, connect, delete and a param edit', async (t) => {
  const page = await openBlank(t);
  const nodes = page.locator('.react-flow__node');
  const edges = page.locator('.react-flow__edge');
  await dragKind(t, 'Inline rows', 120, 150);
  await dragKind(t, 'Key by', 420, 150);
  await connect(t, ['inlineSource_1', 'out'], ['keyBy_1', 'in']);
  const inspector = await select(t, 'keyBy_1');
  await addTag(inspector, 'key', 'user');
  const keyOf = async () => ((await currentDocument(page)) as { nodes: { id: string; params: { key?: string[] } }[] }).nodes.find((n) => n.id === 'keyBy_1')?.params.key?.join(',');
  t.expect((await keyOf()) === 'id,user', 'key edited to id,user');
  await page.keyboard.press('Escape');
  await node(page, 'inlineSource_1').locator('.op-label').click();
  await page.keyboard.press('Delete');
  await t.expectCount(nodes, 1);
  await t.expectCount(edges, 0);

  await page.keyboard.press('ControlOrMeta+z'); // delete undone
  await t.expectCount(nodes, 2);
  await t.expectCount(edges, 1);
  await page.keyboard.press('ControlOrMeta+z'); // the param edit undone
  await t.waitFor('key back to its default', async () => (await keyOf()) === 'id');
  await page.keyboard.press('ControlOrMeta+z'); // connect undone
  await t.expectCount(edges, 0);
  await page.keyboard.press('ControlOrMeta+z'); // second add undone
  await t.expectCount(nodes, 1);

  await page.keyboard.press('ControlOrMeta+Shift+z');
  await t.expectCount(nodes, 2);
  await page.keyboard.press('ControlOrMeta+y');
  await t.expectCount(edges, 1);
  await page.keyboard.press('ControlOrMeta+y');
  await t.waitFor('key redone to id,user', async () => (await keyOf()) === 'id,user');
  await page.keyboard.press('ControlOrMeta+y');
  await t.expectCount(nodes, 1);
  await t.expectCount(edges, 0);
});

test('designer: copy/paste, duplicate, select all, auto-layout, and a problem that selects its node', async (t) => {
  const page = await openBlank(t);
  const nodes = page.locator('.react-flow__node');
  await dragKind(t, 'Inline rows', 120, 150);
  await dragKind(t, 'Filter', 420, 150);
  await connect(t, ['inlineSource_1', 'out'], ['filter_1', 'in']);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await t.expectCount(nodes, 4);
  await t.expectCount(page.locator('.react-flow__edge'), 2);
  await node(page, 'filter_1').locator('.op-label').click();
  await page.keyboard.press('ControlOrMeta+d');
  await t.expectCount(nodes, 5);

  // The duplicate has no input: its problem in the list selects it.
  await page.getByRole('tab', { name: /Problems/ }).click();
  await page.getByRole('button', { name: /filter_3.*not connected/ }).click();
  await t.expectVisible(page.getByRole('complementary', { name: 'Inspector' }).getByRole('heading', { name: 'filter_3' }));

  const before = JSON.stringify(((await currentDocument(page)) as { nodes: { position: unknown }[] }).nodes.map((n) => n.position));
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  await t.waitFor('auto-layout to move the nodes', async () => JSON.stringify(((await currentDocument(page)) as { nodes: { position: unknown }[] }).nodes.map((n) => n.position)) !== before);
  const laid = ((await currentDocument(page)) as { nodes: { id: string; position: { x: number } }[] }).nodes;
  const x = (id: string) => laid.find((n) => n.id === id)!.position.x;
  t.expect(x('inlineSource_1') < x('filter_1'), 'auto-layout puts a source left of what it feeds');
  await t.screenshot('designer-after-layout');
});
