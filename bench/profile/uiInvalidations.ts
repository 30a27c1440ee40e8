// Which elements a running job makes Chromium repaint, counted over a sample:
// `UI_TAB=State node --import tsx bench/profile/uiInvalidations.ts` (paint invalidation tracking trace).
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { LAUNCH_ARGS, runningPage, traceWhileSampling } from '../lib/uiTrace.ts';

const app = await buildAndServeApp();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
try {
  const page = await runningPage(browser, app.url, process.env.UI_TAB ?? 'State');
  await page.waitForTimeout(1500);
  const { events, sample: s } = await traceWhileSampling(page, 'disabled-by-default-devtools.timeline.invalidationTracking,devtools.timeline', 2000);
  const counts = new Map<string, number>();
  for (const e of events) {
    if (!/Invalidation/.test(e.name)) continue;
    const d = e.args?.data ?? {};
    const k = `${e.name} ${d.nodeName ?? '?'} (${d.reason ?? ''})`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  console.log(`${s.frames} frames`);
  for (const [k, n] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${String(n).padStart(6)}  ${k}`);
} finally {
  await browser.close();
  await app.close();
}
