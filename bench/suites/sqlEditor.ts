// sqlEditor.*: the SQL tab of the real designer in headless Chromium. A seed script (the medallion
// blog post's silver and gold layers) is pasted and applied; then a typo is typed at the end of a
// table name, again and again, and each time the page measures from the keydown to the first
// error underline in the DOM (a MutationObserver), so the driver's round trips are not counted.
// Backspace clears it before the next one. The first keystroke is reported on its own (the planner
// warms up); the figure is the median of the warm ones.
// Runs from Node (playwright-core), not inside the bench page: it needs the app.
import type { Browser, Page } from 'playwright-core';
import { MEDALLION_SQL } from '../../src/testing/sql/seedScripts.ts';
import { median } from '../lib/stats.ts';

export interface SqlEditorSize {
  /** Warm keystrokes measured after the first. */
  keystrokes: number;
}

/** The line whose table name gets the typo: the planner underlines the unknown name. */
const TYPO_LINE = /^FROM\sorder_wide_table_silver$/;
const SQUIGGLE = '.sql-tab .squiggly-error';

async function waitUntil(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`sqlEditor: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Types `key` in the focused editor; ms from its keydown to the first underline, measured in the page. */
async function keystrokeToUnderline(page: Page, key: string): Promise<number> {
  await page.evaluate((sel) => {
    const w = window as unknown as { __keyLatency?: { down: number; shown: number } };
    const m = { down: 0, shown: 0 };
    w.__keyLatency = m;
    document.addEventListener('keydown', () => void (m.down ||= performance.now()), { capture: true, once: true });
    const obs = new MutationObserver(() => {
      if (m.down && !m.shown && document.querySelector(sel)) {
        m.shown = performance.now();
        obs.disconnect();
      }
    });
    obs.observe(document.querySelector('.sql-tab')!, { subtree: true, childList: true, attributes: true });
  }, SQUIGGLE);
  await page.keyboard.type(key);
  await waitUntil('the underline', async () => (await page.locator(SQUIGGLE).count()) > 0);
  return page.evaluate(() => {
    const m = (window as unknown as { __keyLatency: { down: number; shown: number } }).__keyLatency;
    return m.shown - m.down;
  });
}

export async function sqlEditorSuite(browser: Browser, appUrl: string, size: SqlEditorSize): Promise<Record<string, number>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(appUrl);
    await page.locator('body[data-ready="true"]').waitFor();
    await page.getByRole('button', { name: 'Examples' }).click();
    await page.getByRole('button', { name: /Blank pipeline/ }).click();
    // Pasted outside any field, a script opens in the SQL tab.
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, MEDALLION_SQL);
    const apply = page.getByRole('button', { name: 'Apply', exact: true });
    await waitUntil('Apply to be enabled', () => apply.isEnabled());
    await apply.click();
    await page.getByRole('status', { name: 'SQL status' }).filter({ hasText: /Applied/ }).waitFor();
    await page.getByRole('tab', { name: 'SQL' }).click();
    await page.locator('.sql-tab .view-line').first().click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.locator('.sql-tab .view-line').filter({ hasText: TYPO_LINE }).last().click();
    await page.keyboard.press('End');
    const clear = async () => {
      await page.keyboard.press('Backspace');
      await waitUntil('the underline to go', async () => (await page.locator(SQUIGGLE).count()) === 0);
    };
    const first = await keystrokeToUnderline(page, 'x');
    await clear();
    const warm: number[] = [];
    for (let i = 0; i < size.keystrokes; i++) {
      warm.push(await keystrokeToUnderline(page, 'x'));
      await clear();
    }
    return {
      'sqlEditor.keystrokeToDiagnosticsMs': median(warm),
      'sqlEditor.keystrokeToDiagnosticsMaxMs': Math.max(...warm),
      'sqlEditor.firstKeystrokeToDiagnosticsMs': first,
    };
  } finally {
    await context.close();
  }
}
