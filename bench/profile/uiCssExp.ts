// Tries style sheets on one running designer page, interleaved: `VARIANTS='{"base":"","x":".a{b:c}"}'
// UI_TAB=State ROUNDS=4 node --import tsx bench/profile/uiCssExp.ts` → fps and CPU per variant (uiCost.ts).
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { startRun, tab } from '../lib/uiPage.ts';
import { measureCost } from './uiCost.ts';
import { benchDoc } from '../suites/ui.ts';
import { median } from '../lib/stats.ts';
import { LAUNCH_ARGS } from '../lib/launchArgs.ts';
const variants: Record<string, string> = JSON.parse(process.env.VARIANTS!);
const app = await buildAndServeApp();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
const got: Record<string, Awaited<ReturnType<typeof measureCost>>[]> = {};
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await startRun(page, app.url, benchDoc(), 'per_minute');
  await tab(page, process.env.UI_TAB ?? 'State').click();
  await page.waitForTimeout(1500);
  const names = Object.keys(variants);
  for (let r = 0; r < Number(process.env.ROUNDS ?? 4); r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      // A variant "drop:<text>" removes the page's rules whose selector contains <text> (restored for the others).
      await page.evaluate((v) => {
        const w = window as unknown as { __dropped?: [CSSStyleSheet, string, number][] };
        for (const [sheet, text, i] of (w.__dropped ?? []).reverse()) sheet.insertRule(text, i);
        w.__dropped = [];
        document.getElementById('k-exp')?.remove();
        if (v.startsWith('drop:')) {
          for (const sheet of [...document.styleSheets]) {
            for (let i = sheet.cssRules.length - 1; i >= 0; i--) {
              const r = sheet.cssRules[i];
              if (r instanceof CSSStyleRule && r.selectorText.includes(v.slice(5))) { w.__dropped.push([sheet, r.cssText, i]); sheet.deleteRule(i); }
            }
          }
          return;
        }
        const s = document.createElement('style'); s.id = 'k-exp'; s.textContent = v; document.head.appendChild(s);
      }, variants[name]);
      await page.waitForTimeout(300);
      (got[name] ??= []).push(await measureCost(page, 1.5));
    }
  }
  for (const [k, v] of Object.entries(got)) {
    const m = (f: (x: (typeof v)[number]) => number) => median(v.map(f)).toFixed(1);
    console.log(`${k.padEnd(12)} median ${m((x) => x.fps)} fps, main ${m((x) => x.cpuPerFrame)} CPU ms/frame, ${m((x) => x.cpuPerSec)} CPU ms/s, renderer ${m((x) => x.rendererPerSec)} CPU ms/s`);
  }
} finally { await browser.close(); await app.close(); }
