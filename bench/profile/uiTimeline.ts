// Where the designer's main thread goes while top_cities runs at Max, by trace event (style, layout,
// paint, script…): `UI_TAB=Trace UI_SECONDS=3 node --import tsx bench/profile/uiTimeline.ts [before-root]`.
// The CPU profile lumps rendering into "(program)"; a devtools.timeline trace splits it.
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { sampleFrames, startRun, tab } from '../lib/uiPage.ts';
import { benchDoc } from '../suites/ui.ts';

const tabName = process.env.UI_TAB ?? 'State';
const seconds = Number(process.env.UI_SECONDS ?? '3');
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const NAMES = ['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'UpdateLayer', 'FunctionCall', 'EvaluateScript', 'RunMicrotasks', 'FireAnimationFrame', 'HitTest', 'Commit', 'RasterTask', 'ParseHTML', 'MajorGC', 'MinorGC'];

interface TraceEvent { name: string; ph: string; dur?: number; tid: number; pid: number; args?: { data?: { frame?: string } } }

const app = await buildAndServeApp({ root: process.argv[2] || undefined });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await startRun(page, app.url, benchDoc(), 'per_minute');
  await tab(page, tabName).click();
  // UI_CSS: a style sheet to try on the running page (an experiment before editing the real CSS).
  if (process.env.UI_CSS) await page.addStyleTag({ content: process.env.UI_CSS });
  await page.waitForTimeout(1500);
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  const s = await sampleFrames(page, seconds * 1000);
  await cdp.send('Tracing.end');
  await done;
  // The renderer's main thread: the thread that ran the most Layout events.
  const byThread = new Map<string, number>();
  for (const e of events) if (e.name === 'Layout') byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...byThread.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
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
