// Where the designer's main thread goes while top_cities runs at Max, by trace event (style, layout,
// paint, script…): `UI_TAB=Trace UI_SECONDS=3 node --import tsx bench/profile/uiTimeline.ts [before-root]`.
// The CPU profile lumps rendering into "(program)"; a devtools.timeline trace splits it.
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { LAUNCH_ARGS, mainThread, runningPage, traceWhileSampling } from '../lib/uiTrace.ts';

const tabName = process.env.UI_TAB ?? 'State';
const seconds = Number(process.env.UI_SECONDS ?? '3');
const NAMES = ['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'UpdateLayer', 'FunctionCall', 'EvaluateScript', 'RunMicrotasks', 'FireAnimationFrame', 'HitTest', 'Commit', 'RasterTask', 'ParseHTML', 'MajorGC', 'MinorGC'];

const app = await buildAndServeApp({ root: process.argv[2] || undefined });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
try {
  // UI_CSS: a style sheet to try on the running page (an experiment before editing the real CSS).
  const page = await runningPage(browser, app.url, tabName);
  await page.waitForTimeout(1500);
  const { events, sample: s } = await traceWhileSampling(page, 'devtools.timeline,disabled-by-default-devtools.timeline', seconds * 1000);
  const main = mainThread(events);
  const totals = new Map<string, { ms: number; n: number }>();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X' || !NAMES.includes(e.name)) continue;
    const t = totals.get(e.name) ?? { ms: 0, n: 0 };
    t.ms += (e.dur ?? 0) / 1000;
    t.n++;
    totals.set(e.name, t);
  }
  // Paint by layer and size: which parts of the page repaint each frame.
  const paints = new Map<string, { ms: number; n: number }>();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X' || e.name !== 'Paint') continue;
    const d = (e.args?.data ?? {}) as { layerId?: number; clip?: number[]; nodeId?: number };
    const c = d.clip ?? [];
    const w = c.length >= 8 ? Math.round(Math.max(c[2], c[4]) - Math.min(c[0], c[6])) : 0;
    const h = c.length >= 8 ? Math.round(Math.max(c[5], c[7]) - Math.min(c[1], c[3])) : 0;
    const k = `layer ${d.layerId} node ${d.nodeId} ${w}x${h}`;
    const t = paints.get(k) ?? { ms: 0, n: 0 };
    t.ms += (e.dur ?? 0) / 1000;
    t.n++;
    paints.set(k, t);
  }
  const raster = events.filter((e) => e.ph === 'X' && e.name === 'RasterTask').reduce((a, e) => a + (e.dur ?? 0) / 1000, 0);
  console.log(`${tabName}: ${s.fps.toFixed(1)} fps, p95 frame ${s.frameMsP95.toFixed(1)} ms, ${Math.round(s.recordsPerSec)} rec/s over ${seconds} s`);
  for (const [name, t] of [...totals.entries()].sort((a, b) => b[1].ms - a[1].ms)) console.log(`${t.ms.toFixed(0).padStart(7)} ms  ${String(t.n).padStart(5)}×  ${name}`);
  console.log(`raster (all threads) ${raster.toFixed(0)} ms; paint by layer:`);
  for (const [k, t] of [...paints.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) console.log(`${t.ms.toFixed(0).padStart(7)} ms  ${String(t.n).padStart(5)}×  ${k}`);
  if (process.env.UI_NODES) {
    const cdp = await page.context().newCDPSession(page);
    const ids = [...paints.keys()].map((k) => Number(/node (\d+)/.exec(k)?.[1])).filter((n) => n > 0).slice(0, 15);
    await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.pushNodesByBackendIdsToFrontend', { backendNodeIds: ids });
    for (let i = 0; i < ids.length; i++) {
      if (!nodeIds[i]) continue;
      const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId: nodeIds[i] });
      console.log(`node ${ids[i]}: ${outerHTML.slice(0, 160)}`);
    }
  }
} finally {
  await browser.close();
  await app.close();
}
