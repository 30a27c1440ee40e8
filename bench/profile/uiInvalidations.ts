// Which elements a running job makes Chromium repaint, counted over a sample:
// `UI_TAB=State node --import tsx bench/profile/uiInvalidations.ts` (paint invalidation tracking trace).
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { sampleFrames, startRun, tab } from '../lib/uiPage.ts';
import { benchDoc } from '../suites/ui.ts';

interface TraceEvent { name: string; ph: string; tid: number; pid: number; args?: { data?: { nodeName?: string; reason?: string; frame?: string } } }
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const app = await buildAndServeApp();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await startRun(page, app.url, benchDoc(), 'per_minute');
  await tab(page, process.env.UI_TAB ?? 'State').click();
  if (process.env.UI_CSS) await page.addStyleTag({ content: process.env.UI_CSS });
  await page.waitForTimeout(1500);
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline.invalidationTracking,devtools.timeline', transferMode: 'ReportEvents' });
  const s = await sampleFrames(page, 2000);
  await cdp.send('Tracing.end');
  await done;
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
