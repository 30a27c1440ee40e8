// The workbench at projector and laptop sizes: nothing scrolls sideways or hides the toolbar, the
// minimap never covers a node, side panels collapse and resize and keep their sizes, and
// presentation mode leaves the canvas and one output tab.
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { openApp, openExample, openRunSettings } from './designer-helpers.spec.ts';

const SIZES: [number, number][] = [[1280, 720], [1024, 768], [900, 700], [600, 700]];

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

/** The element at the centre of the locator's box is the locator itself (nothing lies on top). */
async function onTop(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (el === hit || el.contains(hit)) && r.right <= window.innerWidth + 0.5 && r.x >= 0;
  }, selector);
}

/** Output tab labels shown only in part: cut by the strip's edges or the panel's box, or wider than their button. */
async function cutTabLabels(page: Page): Promise<string[]> {
  return page.getByRole('tablist', { name: /^(Output|輸出)/ }).evaluate((strip) => {
    const s = strip.getBoundingClientRect();
    const p = strip.closest('.bottom-panel')!.getBoundingClientRect();
    return [...strip.querySelectorAll<HTMLElement>('[role="tab"]')]
      .filter((e) => e.offsetParent !== null && getComputedStyle(e).opacity !== '0')
      .filter((e) => {
        const b = e.getBoundingClientRect();
        const inStrip = b.right > s.left + 0.5 && b.left < s.right - 0.5;
        const whole = b.left >= s.left - 0.5 && b.right <= s.right + 0.5 && b.left >= p.left - 0.5 && b.right <= p.right + 0.5;
        return (inStrip && !whole) || e.scrollWidth > e.clientWidth + 0.5;
      })
      .map((e) => e.textContent ?? '');
  });
}

async function checkSize(t: TestContext, w: number, h: number): Promise<void> {
  const { page } = t;
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.expect(scroll <= 0, `${w}×${h}: the page scrolls sideways by ${scroll}px`);
  t.expect(await onTop(page, 'button[aria-label="Help and shortcuts"]'), `${w}×${h}: the help button is cut off or covered`);
  t.expect(await onTop(page, '.run-controls .btn-primary'), `${w}×${h}: the Run button is covered`);
  // The header never scrolls: whatever does not fit folds into "More", and nothing spills out.
  const header = await page.locator('header.header').evaluate((h) => {
    const nav = h.querySelector('.header-actions') as HTMLElement;
    const right = h.getBoundingClientRect().right;
    const out = [...h.querySelectorAll('button, select')].filter((e) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().right > right + 0.5).map((e) => e.textContent);
    const cut = [...nav.querySelectorAll(':scope > button, :scope > .header-more > button')].filter((e) => e.getBoundingClientRect().right > nav.getBoundingClientRect().right + 0.5).map((e) => e.textContent);
    return { scrolls: nav.scrollWidth > nav.clientWidth + 0.5, out, cut };
  });
  t.expect(!header.scrolls, `${w}×${h}: the header's actions scroll`);
  t.expect(header.out.length === 0 && header.cut.length === 0, `${w}×${h}: header controls cut off: ${[...header.out, ...header.cut].join(', ')}`);
  // The run settings (Speed, State, Checkpoint, Parallelism) stay inside the output panel.
  const spill = await page.locator('.bottom-panel').evaluate((p) => {
    const r = p.getBoundingClientRect();
    return [...p.querySelectorAll('.run-settings select, .run-settings span')].filter((e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && (b.right > r.right + 0.5 || b.left < r.left - 0.5);
    }).map((e) => e.closest('label')?.textContent ?? e.textContent);
  });
  t.expect(spill.length === 0, `${w}×${h}: run settings spill out of the output panel: ${spill.join(', ')}`);
  const canvas = (await page.locator('.react-flow').boundingBox())!;
  t.expect(canvas.height >= h * 0.45, `${w}×${h}: the canvas is only ${Math.round(canvas.height)}px tall`);
  const mini = page.locator('.react-flow__minimap');
  if (await mini.count()) {
    const m = (await mini.boundingBox())!;
    for (const n of await page.locator('.react-flow__node').all()) {
      const b = await n.boundingBox();
      t.expect(!b || !overlap(m, b), `${w}×${h}: the minimap covers node ${await n.getAttribute('data-id')}`);
    }
  }
}

test('layout: at 1280×720, 1024×768, 900×700 and 600 px nothing is cut off or covered', async (t) => {
  const { page } = t;
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    if (w === SIZES[0][0]) await openExample(t, /Open example Coffee shop/, 'visits');
    else await page.reload();
    await t.expectVisible(page.locator('.react-flow__node').first());
    await page.waitForTimeout(400); // fit view
    await t.screenshot(`layout-${w}x${h}`);
    await checkSize(t, w, h);
  }
}, { timeoutMs: 120_000 });

test('layout: narrowing the window from 1280 to 900 and 600 px folds the side panels instead of squeezing the canvas', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExample(t, /Open example Coffee shop/, 'visits');
  await t.expectVisible(page.getByRole('navigation', { name: 'Operators' }));
  for (const [w, h] of [[900, 700], [600, 700]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(400); // fit view
    await t.screenshot(`layout-narrowed-${w}x${h}`);
    const canvas = (await page.locator('.react-flow').boundingBox())!;
    t.expect(canvas.width >= 400, `${w}×${h}: after narrowing the window the canvas is ${Math.round(canvas.width)} px wide`);
    await checkSize(t, w, h);
  }
  // At 900 px, opening the palette folds the inspector rather than the canvas.
  await page.setViewportSize({ width: 900, height: 700 });
  await page.getByRole('button', { name: 'Show the operator palette' }).click();
  await t.expectVisible(page.getByRole('navigation', { name: 'Operators' }));
  await t.expectVisible(page.getByRole('button', { name: 'Show the inspector' }));
  const canvas = (await page.locator('.react-flow').boundingBox())!;
  t.expect(canvas.width >= 400, `900×700: with the palette opened the canvas is ${Math.round(canvas.width)} px wide`);
  await t.screenshot('layout-900-palette-opened');
});

test('layout: the output panel header is one line at 1280×720, 1024×768 and 900×700, every tab in reach', async (t) => {
  const { page } = t;
  await openExample(t, /Open example Coffee shop/, 'visits');
  for (const [w, h] of SIZES.filter(([w]) => w >= 900)) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    const header = page.getByRole('region', { name: 'Output panels' }).locator('.tabs');
    const box = (await header.boundingBox())!;
    const tabBox = (await page.getByRole('tab', { name: 'Problems', exact: true }).boundingBox())!;
    t.expect(box.height < tabBox.height * 1.6, `at ${w}×${h} the output panel header is ${Math.round(box.height)} px tall, a tab ${Math.round(tabBox.height)} px: more than one line`);
    // The last tab is reachable and comes into sight when chosen.
    await page.getByRole('tab', { name: 'Tests', exact: true }).click();
    const strip = (await page.getByRole('tablist', { name: 'Output', exact: true }).boundingBox())!;
    const last = (await page.getByRole('tab', { name: 'Tests', exact: true }).boundingBox())!;
    t.expect(last.x >= strip.x - 0.5 && last.x + last.width <= strip.x + strip.width + 0.5, `at ${w}×${h} the chosen tab is in sight`);
    await t.screenshot(`layout-output-header-${w}x${h}`);
    // Whichever tab is chosen, every label in sight is whole: none reads "tate" for "State".
    for (const name of ['Tests', 'Problems', 'State', 'Checkpoints', 'Trace']) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.waitForTimeout(100);
      const cut = await cutTabLabels(page);
      t.expect(cut.length === 0, `at ${w}×${h} with ${name} chosen, tab labels are cut: ${cut.join(', ')}`);
    }
    await t.screenshot(`layout-output-tabs-trace-${w}x${h}`);
    await page.getByRole('tab', { name: 'Problems', exact: true }).click();
  }
  // In Traditional Chinese, and in presentation mode's larger type, the labels stay whole too.
  await page.locator('select.header-lang').selectOption('zh-TW');
  for (const [w, h] of SIZES.filter(([w]) => w >= 900)) {
    await page.setViewportSize({ width: w, height: h });
    const zhTabs = page.getByRole('tablist', { name: /^輸出/ }).getByRole('tab');
    for (const i of [3, 7, (await zhTabs.count()) - 1]) {
      await zhTabs.nth(i).click();
      await page.waitForTimeout(100);
      const cut = await cutTabLabels(page);
      t.expect(cut.length === 0, `zh-TW at ${w}×${h} with tab ${i} chosen, tab labels are cut: ${cut.join(', ')}`);
    }
    await t.screenshot(`layout-output-tabs-zh-TW-${w}x${h}`);
  }
  await page.locator('select.header-lang').selectOption('en');
  for (const [w, h] of SIZES.filter(([w]) => w >= 900)) {
    await page.setViewportSize({ width: w, height: h });
    await page.getByRole('tab', { name: 'State', exact: true }).click();
    await page.getByRole('button', { name: 'Present', exact: true }).click();
    await page.waitForTimeout(300);
    const cut = await cutTabLabels(page);
    t.expect(cut.length === 0, `presenting at ${w}×${h}, tab labels are cut: ${cut.join(', ')}`);
    await t.screenshot(`layout-output-tabs-present-${w}x${h}`);
    await page.keyboard.press('Escape');
    // The palette is back, open or (below 1000 px, where it would squeeze the canvas) folded to its rail.
    await t.expectVisible(page.getByRole('button', { name: /^(Show|Hide) the operator palette$/ }));
  }
  await page.setViewportSize({ width: 900, height: 700 });
  // At 900 px the speed joins the settings popover; at 1280 it stays in the row, the rest opens from Settings.
  await openRunSettings(page);
  await t.expectVisible(page.getByRole('dialog', { name: 'Run settings' }).getByRole('combobox', { name: 'Speed' }));
  await t.screenshot('layout-run-settings-900');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 720 });
  await t.expectVisible(page.getByRole('group', { name: 'Run settings' }).getByRole('combobox', { name: 'Speed' }));
  await openRunSettings(page);
  t.expect((await page.getByRole('combobox', { name: 'Speed' }).count()) === 1, 'one Speed control at a time');
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('2');
  const toggle = page.getByRole('group', { name: 'Run settings' }).getByRole('button', { name: 'Settings' });
  await t.expectVisible(page.getByRole('dialog', { name: 'Run settings' }));
  await t.screenshot('layout-run-settings-open');
  await page.keyboard.press('Escape');
  await t.expectHidden(page.getByRole('dialog', { name: 'Run settings' }));
  t.expect(/parallelism 2/.test((await toggle.getAttribute('title')) ?? ''), 'the button says the settings chosen');
});

test('layout: while a run is paused the status and history scrubber are whole and the minimap stays clear of them', async (t) => {
  const { page } = t;
  await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /[1-9][\d,]* records/, 30_000);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Paused/);
  for (const [w, h] of SIZES.filter(([w]) => w >= 900)) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(400);
    const canvas = (await page.locator('.canvas').boundingBox())!;
    const row = page.locator('.run-status-row');
    const scrub = (await page.locator('.run-scrubber').boundingBox())!;
    t.expect(scrub.x + scrub.width <= canvas.x + canvas.width + 0.5, `at ${w}×${h} the history scrubber runs past the canvas (${Math.round(scrub.x + scrub.width)} > ${Math.round(canvas.x + canvas.width)})`);
    const minimap = page.getByRole('img', { name: /mini ?map/i }).or(page.locator('.react-flow__minimap'));
    if ((await minimap.count()) > 0) {
      const m = (await minimap.first().boundingBox())!;
      const r = (await row.boundingBox())!;
      t.expect(!overlap(m, r), `at ${w}×${h} the minimap covers the run status row`);
    }
    await t.screenshot(`layout-paused-status-${w}x${h}`);
  }
});

test('layout: at 900 px the project actions that do not fit fold into a More menu that works', async (t) => {
  const { page } = t;
  await openExample(t, /Open example Coffee shop/, 'visits');
  await page.setViewportSize({ width: 900, height: 700 });
  const more = page.getByRole('navigation', { name: 'Project' }).getByRole('button', { name: /More/ });
  await more.click();
  const menu = page.getByRole('menu', { name: 'More' });
  await t.expectVisible(menu.getByRole('menuitem', { name: 'Flink SQL' }));
  await t.screenshot('layout-900-more-menu');
  await page.keyboard.press('Escape');
  await t.expectHidden(menu);
  await more.click();
  await menu.getByRole('menuitem', { name: 'Flink SQL' }).click();
  await t.expectVisible(page.getByRole('dialog'));
  await page.keyboard.press('Escape');
  // In Traditional Chinese the labels are shorter: the fold is measured again.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await t.expectVisible(page.getByRole('navigation', { name: '專案' }).getByRole('button', { name: '範例' }));
  await page.setViewportSize({ width: 1280, height: 720 });
  await t.expectCount(page.getByRole('navigation', { name: '專案' }).getByRole('button', { name: /更多/ }), 0);
});

test('layout: palette, inspector and output panel collapse and resize, and keep their sizes', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('button', { name: 'Hide the operator palette' }).click();
  await t.expectHidden(page.getByRole('navigation', { name: 'Operators' }));
  const inspector = page.getByRole('separator', { name: 'Resize the inspector' });
  const before = Number(await inspector.getAttribute('aria-valuenow'));
  await inspector.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const wider = Number(await inspector.getAttribute('aria-valuenow'));
  t.expect(wider === before + 32, `the inspector grows with the arrow keys (${before} → ${wider})`);
  const bottom = page.getByRole('separator', { name: 'Resize the output panel' });
  const b = (await bottom.boundingBox())!;
  await page.mouse.move(b.x + 200, b.y + 3);
  await page.mouse.down();
  await page.mouse.move(b.x + 200, b.y + 63, { steps: 5 });
  await page.mouse.up();
  const lower = Number(await bottom.getAttribute('aria-valuenow'));
  await page.reload();
  await t.expectVisible(page.locator('.react-flow__node').first());
  t.expect((await page.getByRole('navigation', { name: 'Operators' }).count()) === 0, 'the palette stays hidden after a reload');
  t.expect(Number(await inspector.getAttribute('aria-valuenow')) === wider, 'the inspector keeps its width after a reload');
  t.expect(Number(await bottom.getAttribute('aria-valuenow')) === lower, 'the output panel keeps its height after a reload');
  await page.getByRole('button', { name: 'Show the operator palette' }).click();
  await t.expectVisible(page.getByRole('navigation', { name: 'Operators' }));
  await page.getByRole('button', { name: /Show or hide the minimap/ }).click();
  await t.expectCount(page.locator('.react-flow__minimap'), 0);
  await t.screenshot('layout-resized');
});

test('layout: presentation mode shows the canvas and one output tab in larger type', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExample(t, /Open example Coffee shop/, 'visits');
  await page.getByRole('tab', { name: 'Results', exact: true }).click();
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  await t.expectHidden(page.getByRole('navigation', { name: 'Operators' }));
  await t.expectHidden(page.getByRole('complementary', { name: 'Inspector' }));
  const visibleTabs = await page.getByRole('tablist', { name: 'Output', exact: true }).getByRole('tab').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
  t.expect(visibleTabs === 1, `one output tab in presentation mode, saw ${visibleTabs}`);
  await t.screenshot('layout-presentation');
  await page.keyboard.press('Escape');
  await t.expectVisible(page.getByRole('navigation', { name: 'Operators' }));
});

test('layout: with a lesson open the run toolbar is one line at 1280×720, 1024×768 and 900×700, its step kind reads in full, its folded actions under More', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(t);
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  await page.getByRole('list', { name: 'All lessons' }).getByRole('button', { name: 'Stateless vs stateful', exact: true }).click();
  await t.expectVisible(page.getByRole('complementary', { name: 'Lesson' }).getByRole('heading', { name: 'Stateless vs stateful' }));
  const wrapped: string[] = [];
  for (const [w, h] of SIZES.filter(([w]) => w >= 900)) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    await t.screenshot(`layout-lesson-toolbar-${w}x${h}`);
    const bar = await page.getByRole('toolbar', { name: 'Run controls' }).evaluate((bar) => {
      const edge = bar.closest('.editbar')!.getBoundingClientRect();
      const controls = [...bar.querySelectorAll('button, select')].filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getBoundingClientRect());
      return {
        rows: new Set(controls.map((c) => Math.round(c.top + c.height / 2))).size,
        spread: Math.max(...controls.map((c) => c.bottom)) - Math.min(...controls.map((c) => c.top)),
        tallest: Math.max(...controls.map((c) => c.height)),
        outside: controls.filter((c) => c.right > edge.right + 0.5 || c.left < edge.left - 0.5).length,
      };
    });
    if (bar.spread >= bar.tallest * 1.5) wrapped.push(`at ${w}×${h} its controls span ${Math.round(bar.spread)} px, a control is ${Math.round(bar.tallest)} px`);
    if (bar.outside > 0) wrapped.push(`at ${w}×${h} ${bar.outside} controls run past it`);
    const narrow = await narrowOptions(page, 'Step by');
    if (narrow.length) wrapped.push(`at ${w}×${h} the step kinds do not fit their list: ${narrow.join(', ')}`);
  }
  t.expect(wrapped.length === 0, `with a lesson open the run toolbar is not one line or cuts a control: ${wrapped.join('; ')}`);
  await page.getByRole('combobox', { name: 'Step by' }).selectOption('watermark');
  await t.screenshot('layout-lesson-toolbar-900x700-watermark');
  // At 900 px the actions that did not fit are one click away, and they work from there.
  const toolbar = page.getByRole('toolbar', { name: 'Run controls' });
  await toolbar.getByRole('button', { name: /More/ }).click();
  await t.expectVisible(toolbar.getByRole('group', { name: 'More' }).getByRole('button', { name: 'Checkpoint now' }));
  await toolbar.getByRole('group', { name: 'More' }).getByRole('button', { name: 'Kill a subtask…' }).waitFor({ state: 'visible' });
  await t.screenshot('layout-lesson-run-more-900x700');
  await page.keyboard.press('Escape');
  await t.expectHidden(toolbar.getByRole('group', { name: 'More' }));
  await t.expectVisible(toolbar.getByRole('button', { name: 'Step', exact: true }));
});

/** Options of a select whose text is wider than the room the closed select gives it (its box less padding and arrow). */
async function narrowOptions(page: Page, label: string): Promise<string[]> {
  return page.getByRole('combobox', { name: label }).evaluate((el) => {
    const sel = el as HTMLSelectElement;
    const cs = getComputedStyle(sel);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    // Chromium draws the closed select's arrow in about 1.2em at the inline end.
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - parseFloat(cs.fontSize) * 1.2;
    return [...sel.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(ctx.measureText(o.text).width)} px in ${Math.round(room)} px)`);
  });
}

