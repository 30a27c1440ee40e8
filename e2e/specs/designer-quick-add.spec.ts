// What comparable canvases have: type to add an operator at the pointer, and drop an operator
// onto a connection to insert it there.
import { test } from '../harness.ts';
import { currentDocument, importDoc, node, openBlank, steadyCanvas } from './designer-helpers.spec.ts';

test('quick add: typing on the canvas finds an operator by name and Enter adds it at the pointer', async (t) => {
  const page = await openBlank(t);
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const at = { x: pane.x + pane.width * 0.6, y: pane.y + pane.height * 0.4 };
  await page.mouse.move(at.x, at.y);
  await page.keyboard.press('w');
  const box = page.getByRole('combobox', { name: 'Operator to add' });
  await t.expectVisible(box);
  t.expect((await box.inputValue()) === 'w', 'the letter typed opens the finder with it');
  await page.keyboard.press('Escape');
  await t.expectHidden(box);
  t.expect((await page.locator('.react-flow__node').count()) === 0, 'Escape adds nothing');
  // F opens the finder too ("filter" starts with it); Shift+1 still fits the view.
  await page.keyboard.type('filt');
  await t.expectText(page.getByRole('listbox', { name: 'Matching operators' }).getByRole('option', { selected: true }), /Filter/);
  await t.screenshot('quick-add-filter');
  await page.keyboard.press('Enter');
  await t.expectCount(page.locator('.react-flow__node'), 1);
  const added = (await page.locator('.react-flow__node').first().boundingBox())!;
  t.expect(Math.abs(added.x - at.x) < 160 && Math.abs(added.y - at.y) < 80, `the node lands at the pointer (${Math.round(added.x)},${Math.round(added.y)} vs ${Math.round(at.x)},${Math.round(at.y)})`);
  const doc = (await currentDocument(page)) as { nodes: { kind: string }[] };
  t.expect(doc.nodes[0].kind === 'filter', `added a filter, got ${doc.nodes[0].kind}`);
  // Arrow keys choose among matches; in zh-TW the finder speaks Chinese and still knows kind names.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await page.mouse.move(at.x - 200, at.y + 60);
  await page.keyboard.type('window');
  await t.expectVisible(page.getByRole('combobox', { name: '要新增的運算子' }));
  await page.keyboard.press('Enter');
  await t.expectCount(page.locator('.react-flow__node'), 2);
});

const pos = (x: number, y: number) => ({ x, y });
const WIRE = {
  format: 'weir/pipeline',
  version: 1,
  name: 'insert on a wire (e2e)',
  nodes: [
    { id: 'rows', kind: 'inlineSource', params: { rows: [{ k: 'a', v: 1 }] }, position: pos(0, 0) },
    { id: 'out', kind: 'logSink', params: {}, position: pos(700, 0) },
    { id: 'keep', kind: 'filter', params: { where: 'v > 0' }, position: pos(330, 260) },
  ],
  edges: [{ from: { node: 'rows', port: 'out' }, to: { node: 'out', port: 'in' } }],
};

test('drop on edge: dragging an unconnected operator onto a connection inserts it there, undoably', async (t) => {
  const page = await importDoc(t, WIRE, 'keep');
  await steadyCanvas(page);
  const mid = await page.locator('.react-flow__edge path.react-flow__edge-path').first().evaluate((p) => {
    const path = p as SVGPathElement;
    const pt = path.getPointAtLength(path.getTotalLength() / 2);
    const m = path.getScreenCTM()!;
    return { x: pt.x * m.a + m.e, y: pt.y * m.d + m.f };
  });
  const grip = (await node(page, 'keep').locator('.op-label').boundingBox())!;
  await page.mouse.move(grip.x + 10, grip.y + 5);
  await page.mouse.down();
  await page.mouse.move((grip.x + mid.x) / 2, (grip.y + mid.y) / 2, { steps: 6 });
  await page.mouse.move(mid.x, mid.y, { steps: 6 });
  await t.expectCount(page.locator('.op-edge-insert'), 1);
  await t.screenshot('drop-on-edge-hover');
  await page.mouse.up();
  await t.expectCount(page.locator('.react-flow__edge'), 2);
  const doc = (await currentDocument(page)) as { edges: { from: { node: string }; to: { node: string } }[] };
  const wires = doc.edges.map((e) => `${e.from.node}->${e.to.node}`).sort();
  t.expect(JSON.stringify(wires) === JSON.stringify(['keep->out', 'rows->keep']), `rows → keep → out, got ${wires.join(', ')}`);
  await page.keyboard.press('Control+z');
  await t.expectCount(page.locator('.react-flow__edge'), 1);
});
