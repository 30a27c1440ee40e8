// Shared steps for the designer specs. The file name matches the runner's *.spec.ts pattern only
// so that it sits with the designer specs; it registers no tests of its own.
import type { Locator, Page } from 'playwright-core';
import type { TestContext } from '../harness.ts';

/** Opens the app and waits until the canvas and palette are on screen. */
export async function openApp(t: TestContext, hash = ''): Promise<Page> {
  const { page } = t;
  await page.goto(`${t.baseUrl}/${hash}`);
  // Below 1000 px the palette starts folded to its rail.
  await t.expectVisible(page.getByRole('navigation', { name: 'Operators' }).or(page.getByRole('button', { name: 'Show the operator palette' })));
  await t.expectVisible(page.locator('.react-flow__pane'));
  await t.expectVisible(page.locator('body[data-ready="true"]'));
  return page;
}

/** Opens the run settings (state backend, checkpoint interval, default parallelism) in the output panel's header. */
export async function openRunSettings(page: Page): Promise<void> {
  const toggle = page.getByRole('group', { name: 'Run settings' }).getByRole('button', { name: 'Settings' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** A fresh project on an empty canvas, through the gallery's "Blank pipeline" card. */
export async function openBlank(t: TestContext): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: /Blank pipeline/ }).click();
  await t.expectCount(page.locator('.react-flow__node'), 0);
  return page;
}

export const node = (page: Page, id: string): Locator => page.locator(`.react-flow__node[data-id="${id}"]`);
export const handle = (page: Page, id: string, dir: 'in' | 'out', port: string): Locator => node(page, id).locator(`.react-flow__handle[data-handleid="${dir}:${port}"]`);

/** Drags a palette item (found by its accessible name) onto the canvas at a point in the pane. */
export async function dragKind(t: TestContext, title: string, x: number, y: number): Promise<void> {
  const { page } = t;
  const before = await page.locator('.react-flow__node').count();
  await page.getByRole('button', { name: title, exact: true }).dragTo(page.locator('.react-flow__pane'), { targetPosition: { x, y } });
  await t.expectCount(page.locator('.react-flow__node'), before + 1);
}

async function centre(l: Locator): Promise<{ x: number; y: number }> {
  const b = await l.boundingBox();
  if (!b) throw new Error(`no box for ${String(l)}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/**
 * Waits until the canvas stops moving: opening a document fits the view with a short animation,
 * and fits again once React Flow has measured the nodes, so a handle's box read too early is
 * where the handle used to be (about 20 px off at the zoom of a three-node document).
 */
export async function steadyCanvas(page: Page): Promise<void> {
  const read = () => page.locator('.react-flow__viewport').first().getAttribute('style');
  let last = await read();
  for (let stable = 0, i = 0; stable < 3 && i < 60; i++) {
    await page.waitForTimeout(80);
    const now = await read();
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}

/**
 * Presses on one port, moves to another in small steps, and optionally releases there. Like a
 * person, it aims at where the target is on screen when it gets there, not where it was.
 */
export async function dragWire(page: Page, from: Locator, to: Locator, release = true): Promise<void> {
  await steadyCanvas(page);
  const a = await centre(from);
  const b = await centre(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 8 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  const end = await centre(to);
  if (Math.hypot(end.x - b.x, end.y - b.y) > 1) await page.mouse.move(end.x, end.y, { steps: 2 });
  if (release) await page.mouse.up();
}

export async function connect(t: TestContext, from: [string, string], to: [string, string]): Promise<void> {
  const { page } = t;
  const before = await page.locator('.react-flow__edge').count();
  await dragWire(page, handle(page, from[0], 'out', from[1]), handle(page, to[0], 'in', to[1]));
  // A node dropped just before may still be settling (fit view, measurement): aim once more if the
  // wire did not land, as a person would.
  const landed = await t.waitFor('the connection', async () => (await page.locator('.react-flow__edge').count()) === before + 1, 3000).then(() => true, () => false);
  if (!landed) await dragWire(page, handle(page, from[0], 'out', from[1]), handle(page, to[0], 'in', to[1]));
  await t.expectCount(page.locator('.react-flow__edge'), before + 1);
}

/**
 * Selects a node by clicking its title, which opens its inspector. Right after a load the canvas
 * may still be fitting its view, and a click can land where the title was: click once more, as a
 * person would.
 */
export async function select(t: TestContext, id: string): Promise<Locator> {
  const inspector = t.page.getByRole('complementary', { name: 'Inspector' });
  const idField = inspector.getByRole('textbox', { name: 'id', exact: true });
  await node(t.page, id).locator('.op-label').click();
  const opened = await t.waitFor(`the inspector of ${id}`, async () => (await idField.inputValue({ timeout: 500 }).catch(() => null)) === id, 3000).then(() => true, () => false);
  if (!opened) await node(t.page, id).locator('.op-label').click();
  await t.expectVisible(idField);
  return inspector;
}

/** Adds one value to a string-list field, keeping the ones it has. */
export async function addTag(inspector: Locator, name: string, value: string): Promise<void> {
  const field = inspector.getByRole('textbox', { name, exact: true }).or(inspector.getByRole('combobox', { name, exact: true }));
  await field.fill(value);
  await field.press('Enter');
}

/** Replaces the tags of a string-list field: removes every chip, then types the new values. */
export async function setTags(inspector: Locator, name: string, values: string[]): Promise<void> {
  // A tag input with upstream field suggestions is a combobox, without them a textbox.
  const field = inspector.getByRole('textbox', { name, exact: true }).or(inspector.getByRole('combobox', { name, exact: true }));
  for (;;) {
    const remove = inspector.getByRole('button', { name: new RegExp(`^Remove .* from ${name}$`) });
    if ((await remove.count()) === 0) break;
    await remove.first().click();
  }
  for (const v of values) {
    await field.fill(v);
    await field.press('Enter');
  }
}

/** The whole document as the app holds it, read through the Pipeline JSON tab's editor model. */
export async function currentDocument(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const w = window as unknown as { __weir?: { doc(): unknown } };
    return w.__weir?.doc() ?? null;
  });
}

/**
 * Replaces what a Monaco editor holds the way a person would: select all, then paste. Pasting
 * (rather than typing) keeps Monaco's auto-closing brackets and auto-indent out of the way.
 */
export async function replaceMonacoText(page: Page, editorLabel: string, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: editorLabel }).first();
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/** Opens the app and a pipeline document through "Open file". */
export async function importDoc(t: TestContext, doc: unknown, someNode: string): Promise<Page> {
  const page = await openApp(t);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'doc.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await t.expectVisible(node(page, someNode));
  return page;
}

/** Opens the app and one of the examples from the gallery. */
export async function openExample(t: TestContext, title: RegExp, someNode: string): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: title }).click();
  await t.expectVisible(node(page, someNode));
  return page;
}
