// Screenshots of each observatory tab while top_cities runs at Max, to look at after a UI change:
// `UI_URL=http://127.0.0.1:4321 node --import tsx bench/profile/uiShots.ts <out-dir>` (a served build).
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startRun, tab } from '../lib/uiPage.ts';
import { benchDoc } from '../suites/ui.ts';
import { UI_TABS } from '../figures.ts';

const out = process.argv[2] ?? '/tmp/weir-ui-shots';
const url = process.env.UI_URL ?? 'http://127.0.0.1:4321';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: Number(process.env.UI_SCALE ?? 1) })).newPage();
  await startRun(page, url, benchDoc(), 'per_minute');
  for (const name of UI_TABS) {
    await tab(page, name).click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/${name.toLowerCase()}.png` });
  }
  // Checkpoint chips come and go (≈1 s after each snapshot): how many frames over 2 s showed one.
  const chips = await page.evaluate(`new Promise((resolve) => { let seen = 0, n = 0; const t0 = performance.now(); const f = () => { n++; if (document.querySelector('.obs-snapshot')) seen++; if (performance.now() - t0 < 2000) requestAnimationFrame(f); else resolve(seen + '/' + n); }; requestAnimationFrame(f); })`);
  console.log(`frames with a checkpoint chip: ${chips}`);
  // The canvas at 2×: the live badges on nodes and edges (rates, queue bars, checkpoint chips) up close.
  await page.locator('.react-flow__pane').screenshot({ path: `${out}/canvas.png`, scale: 'device' });
  console.log(`${UI_TABS.join(', ')} → ${out}`);
} finally {
  await browser.close();
}
