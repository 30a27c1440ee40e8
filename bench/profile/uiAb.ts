// Before/after of a UI change, interleaved in one browser: `node --import tsx bench/profile/uiAb.ts <before-root> [rounds]`
// where <before-root> is a copy of the repository with the old files (node_modules symlinked). Each round runs the
// State-tab sample of the ui suite on both builds, alternating who goes first; prints fps and records/s per side.
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { sampleFrames, startRun, tab } from '../lib/uiPage.ts';
import { benchDoc } from '../suites/ui.ts';
import { median } from '../lib/stats.ts';

const [beforeRoot, roundsArg = '4'] = process.argv.slice(2);
if (!beforeRoot) throw new Error('usage: uiAb.ts <before-root> [rounds]');
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const apps = { before: await buildAndServeApp({ root: beforeRoot }), after: await buildAndServeApp() };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
const got: Record<string, { fps: number[]; rate: number[] }> = { before: { fps: [], rate: [] }, after: { fps: [], rate: [] } };
try {
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const side of r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await startRun(page, apps[side].url, benchDoc(), 'per_minute');
      await tab(page, process.env.UI_TAB ?? 'State').click();
      await page.waitForTimeout(1000);
      const s = await sampleFrames(page, 3000);
      await context.close();
      got[side].fps.push(s.fps);
      got[side].rate.push(s.recordsPerSec);
      console.log(`round ${r + 1} ${side}: ${s.fps.toFixed(1)} fps, ${Math.round(s.recordsPerSec)} rec/s`);
    }
  }
  for (const side of ['before', 'after']) console.log(`${side}: median ${median(got[side].fps).toFixed(1)} fps, ${Math.round(median(got[side].rate))} rec/s`);
} finally {
  await browser.close();
  await apps.before.close();
  await apps.after.close();
}
