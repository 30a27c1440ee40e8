// The main views as screenshots, plus the two scale promises: 200 nodes stay smooth, 100,000 rows stay fast.
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

test('designer views: dragging a node among 200 stays smooth', async (t) => {
  const page = await openApp(t);
  const nodes = Array.from({ length: 200 }, (_, i) => ({ id: `f${i}`, kind: 'filter', params: { where: 'true' }, position: { x: (i % 20) * 240, y: Math.floor(i / 20) * 140 } }));
  const edges = nodes.slice(1).map((n, i) => ({ from: { node: nodes[i].id, port: 'out' }, to: { node: n.id, port: 'in' } }));
  await importDoc(t, { format: 'weir/pipeline', version: 1, name: 'two hundred', nodes, edges });
  await t.waitFor('200 nodes in the document', async () => page.evaluate(() => (window as unknown as { __weir: { doc(): { nodes: unknown[] } } }).__weir.doc().nodes.length === 200));
  await page.getByRole('button', { name: 'Zoom controls' }).or(page.locator('.react-flow__controls')).first().waitFor();
  const target = node(page, 'f105');
  await target.waitFor();
  const box = (await target.boundingBox())!;
  // Frame gaps measured in the page: what a person would feel, not how fast the test driver is.
  // (A string, so the test compiler's helpers never leak into the page.)
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__stop = false;
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) await page.mouse.move(cx + i * 5, cy + i * 2);
  await page.mouse.up();
  const gaps = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames.slice(2).sort((a, b) => a - b);
  });
  const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
  // Generous on a shared 2-vCPU machine; a re-render of every node per move would blow far past it.
  t.expect(median < 100, `median frame gap while dragging among 200 nodes was ${median.toFixed(1)} ms (${gaps.length} frames)`);
  console.log(`    200-node drag: median frame ${median.toFixed(1)} ms over ${gaps.length} frames`);
  const moved = await page.evaluate(() => (window as unknown as { __weir: { doc(): { nodes: { position: { x: number } }[] } } }).__weir.doc().nodes[105].position.x);
  t.expect(moved > 5 * 240 + 50, `the dragged node moved in the document (x = ${moved})`);
}, { timeoutMs: 90_000 });

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
