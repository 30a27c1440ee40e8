// Edge labels (rate, queue, watermark, changelog kinds) of a running job never cover a node or
// each other, at projector and laptop sizes; a label moved off its curve keeps a leader line to it.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { node, openApp } from './designer-helpers.spec.ts';

const SIZES: [number, number][] = [[1280, 720], [1024, 768], [900, 700]];
const EXAMPLES: [RegExp, string][] = [[/Open example Coffee shop/, 'visits'], [/Open example Orders LEFT JOIN/, 'paid'], [/Open example Bronze/, 'bronze']];

type Box = { x: number; y: number; width: number; height: number; name: string };
const cross = (a: Box, b: Box) => Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

async function boxes(page: Page, selector: string, nameOf: (el: Element) => string): Promise<Box[]> {
  return page.locator(selector).evaluateAll(
    (els, f) => els.map((el) => ({ ...JSON.parse(JSON.stringify(el.getBoundingClientRect())), name: new Function('el', `return (${f})(el)`)(el) })),
    nameOf.toString(),
  );
}

async function checkLabels(t: TestContext, where: string): Promise<number> {
  const { page } = t;
  const edges = await page.locator('.react-flow__edge').count();
  await t.waitFor(`${where}: a label on each of the ${edges} edges`, async () => (await page.locator('.obs-edge-label').count()) === edges);
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await pause.click({ timeout: 1_000 }).catch(() => undefined); // a short job may have finished already
  await page.waitForTimeout(300);
  const labels = await boxes(page, '.obs-edge-label', (el) => el.getAttribute('aria-label') ?? '?');
  const nodes = await boxes(page, '.react-flow__node', (el) => el.getAttribute('data-id') ?? '?');
  for (let i = 0; i < labels.length; i++) {
    for (const n of nodes) t.expect(!cross(labels[i], n), `${where}: label "${labels[i].name}" covers node ${n.name}`);
    for (let j = i + 1; j < labels.length; j++) t.expect(!cross(labels[i], labels[j]), `${where}: labels "${labels[i].name}" and "${labels[j].name}" overlap`);
  }
  const crowded = await page.locator('.obs-edge-label[data-placement="crowded"]').count();
  t.expect(crowded === 0, `${where}: ${crowded} label(s) found no free place`);
  // A label that left its curve is tied back to it.
  const moved = await page.locator('.obs-edge-label[data-displaced]').count();
  const leaders = await page.locator('.edge-leader').count();
  t.expect(leaders === moved, `${where}: ${moved} label(s) moved off their curve but ${leaders} leader line(s)`);
  return labels.length;
}

test('edge labels: no label covers a node or another label at 1280×720, 1024×768 and 900×700', async (t) => {
  const { page } = t;
  let checked = 0;
  await openApp(t);
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    for (const [title, someNode] of EXAMPLES) {
      await page.getByRole('button', { name: 'Examples' }).click();
      await page.getByRole('button', { name: title }).click();
      await t.expectVisible(node(page, someNode));
      await page.waitForTimeout(400); // fit view
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      checked += await checkLabels(t, `${w}×${h} ${title.source}`);
      if (title === EXAMPLES[0][0]) await t.screenshot(`edge-labels-${w}x${h}`);
      const stop = page.getByRole('button', { name: 'Stop', exact: true });
      await stop.click({ timeout: 1_000 }).catch(() => undefined);
    }
  }
  t.expect(checked >= 30, `checked ${checked} labels`);
}, { timeoutMs: 180_000 });
