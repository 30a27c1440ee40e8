// A CPU profile of the designer's main thread while top_cities runs at Max with the State tab open (UI_TAB=Chart: the view's live chart):
// `UI_TAB=State UI_SECONDS=4 node --import tsx bench/profile/ui.ts` → $TMPDIR/weir-ui-profile/ui-<tab>.cpuprofile and the top self times.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { CHART_TAB, openChart, sampleFrames, startRun, tab } from '../lib/uiPage.ts';
import { benchDoc, CHART_VIEW } from '../suites/ui.ts';
import { selfTimes } from './summarize.ts';
import { LAUNCH_ARGS } from '../lib/launchArgs.ts';

// Options come from the environment: summarize.ts (imported) treats process.argv[2] as its own input.
const tabName = process.env.UI_TAB ?? 'State';
const seconds = process.env.UI_SECONDS ?? '4';
const root = fileURLToPath(new URL('../..', import.meta.url));
// bench/run.ts's flags (importing run.ts would start a bench run).
const out = `${tmpdir()}/weir-ui-profile/`;
mkdirSync(out, { recursive: true });
const app = await buildAndServeApp({ minify: process.env.MINIFY !== '0' });
const browser = await chromium.launch({ executablePath: execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim(), headless: true, args: LAUNCH_ARGS });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await startRun(page, app.url, benchDoc(), 'per_minute');
  if (tabName === CHART_TAB) await openChart(page, CHART_VIEW);
  else await tab(page, tabName).click();
  await page.waitForTimeout(1500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const s = await sampleFrames(page, Number(seconds) * 1000);
  const { profile } = await cdp.send('Profiler.stop');
  const file = `${out}ui-${tabName.toLowerCase()}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${tabName}: ${s.fps.toFixed(1)} fps, p95 frame ${s.frameMsP95.toFixed(1)} ms, ${Math.round(s.recordsPerSec)} rec/s → ${file}`);
  for (const r of selfTimes(profile as never).slice(0, 30)) console.log(`${(r.share * 100).toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.name}`);
} finally {
  await browser.close();
  await app.close();
}
