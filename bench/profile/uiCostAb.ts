// Before/after of a UI change by the CPU the page's main thread spends, not by frame rate: on a shared,
// overloaded VM fps mostly measures the neighbours, while thread time (trace events' `tdur`) measures
// the work itself. `UI_TAB=State node --import tsx bench/profile/uiCostAb.ts <before-root> [rounds]`.
// Per round and side: main-thread CPU ms per second of run, per frame drawn, and records/s.
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { LAUNCH_ARGS, runningPage } from '../lib/uiTrace.ts';
import { measureCost } from './uiCost.ts';
import { median } from '../lib/stats.ts';

const [beforeRoot, roundsArg = '5'] = process.argv.slice(2);
if (!beforeRoot) throw new Error('usage: uiCostAb.ts <before-root> [rounds]');
const tabName = process.env.UI_TAB ?? 'State';
const seconds = Number(process.env.UI_SECONDS ?? '3');

const apps = { before: await buildAndServeApp({ root: beforeRoot }), after: await buildAndServeApp() };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
const got: Record<string, Awaited<ReturnType<typeof measureCost>>[]> = { before: [], after: [] };
try {
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const side of r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const page = await runningPage(browser, apps[side].url, tabName);
      await page.waitForTimeout(1000);
      const m = await measureCost(page, seconds);
      await page.context().close();
      got[side].push(m);
      console.log(`round ${r + 1} ${side}: ${m.fps.toFixed(1)} fps (p95 frame ${m.frameMsP95.toFixed(1)} ms), main thread ${m.cpuPerSec.toFixed(0)} CPU ms/s, ${m.cpuPerFrame.toFixed(1)} CPU ms/frame, renderer ${m.rendererPerSec.toFixed(0)} CPU ms/s, ${Math.round(m.rate)} rec/s`);
    }
  }
  const ratio = (k: 'fps' | 'frameMsP95' | 'cpuPerSec' | 'cpuPerFrame' | 'rate' | 'rendererPerSec') => median(got.after.map((a, i) => a[k] / got.before[i][k]));
  for (const side of ['before', 'after']) {
    const g = got[side];
    console.log(`${tabName} ${side}: median ${median(g.map((m) => m.fps)).toFixed(1)} fps, p95 frame ${median(g.map((m) => m.frameMsP95)).toFixed(1)} ms, ${median(g.map((m) => m.cpuPerSec)).toFixed(0)} CPU ms/s, ${median(g.map((m) => m.cpuPerFrame)).toFixed(1)} CPU ms/frame, ${Math.round(median(g.map((m) => m.rate)))} rec/s`);
  }
  console.log(`paired after/before: fps ×${ratio('fps').toFixed(2)}, p95 frame ×${ratio('frameMsP95').toFixed(2)}, CPU ms/frame ×${ratio('cpuPerFrame').toFixed(2)}, CPU ms/s ×${ratio('cpuPerSec').toFixed(2)}, renderer CPU ms/s ×${ratio('rendererPerSec').toFixed(2)}, rec/s ×${ratio('rate').toFixed(2)}`);
} finally {
  await browser.close();
  await apps.before.close();
  await apps.after.close();
}
