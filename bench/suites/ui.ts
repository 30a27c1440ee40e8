// ui.*: frames per second of the real designer while an example runs at Max speed with the canvas
// overlays live and the bottom panel on State (node selected), fps per observatory tab and on the
// view's live chart, and the job's throughput with that UI ÷ the same ClusterSession driven
// headless from a bare worker.
// Runs from Node (playwright-core), not inside the bench page: it needs a second page, the app.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { PipelineDocument } from '../../src/pipeline/document.ts';
import { median } from '../lib/stats.ts';
import { UI_TABS } from '../figures.ts';
import { openChart, sampleFrames, startRun, tab } from '../lib/uiPage.ts';

export interface UiSize {
  /** Measured rounds after `warmups`; each round is one UI run and one headless run, order alternating. */
  runs: number;
  warmups: number;
  /** Run time before sampling starts (JIT, first checkpoints, panels filled). */
  warmupMs: number;
  /** The main sample: fps and throughput with the State tab open. */
  measureMs: number;
  /** Each further tab's fps sample. */
  tabMs: number;
}

/** The example: generator → keyed tumbling-window aggregate (city) → Top-N → view, plus the late output. */
const EXAMPLE = fileURLToPath(new URL('../../public/examples/top-cities.json', import.meta.url));
const SELECTED = 'per_minute';
/** The view the chart sample draws. */
export const CHART_VIEW = 'top_cities';

/** The example with a generator long enough never to finish within a measurement at Max speed. */
export function benchDoc(): PipelineDocument {
  const doc = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as PipelineDocument;
  const source = doc.nodes.find((n) => n.kind === 'generatorSource');
  if (!source) throw new Error(`${EXAMPLE}: no generatorSource node to lengthen`);
  source.params = { ...source.params, count: 1_000_000_000 };
  if (!doc.nodes.some((n) => n.id === SELECTED)) throw new Error(`${EXAMPLE}: node "${SELECTED}" is gone; pick the keyed window node in bench/suites/ui.ts`);
  return doc;
}

interface UiRun {
  /** The same page with the job loaded, before Run: what this machine renders when nothing changes. */
  idleFps: number;
  fps: number;
  frameMsP95: number;
  recordsPerSec: number;
  byTab: Record<string, number>;
  /** The Results tab on the view's live line chart (top 10 cities over window_start). */
  chartFps: number;
  chartFrameMsP95: number;
}

async function uiRun(browser: Browser, appUrl: string, doc: PipelineDocument, size: UiSize, onPage?: (p: Page) => Promise<void>): Promise<UiRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    let idleFps = NaN;
    await startRun(page, appUrl, doc, SELECTED, async () => {
      idleFps = (await sampleFrames(page, size.tabMs)).fps;
    });
    await tab(page, UI_TABS[0]).click();
    await page.waitForTimeout(size.warmupMs);
    if (onPage) await onPage(page);
    const main = await sampleFrames(page, size.measureMs);
    if (!/Running/.test(main.status)) throw new Error(`the run stopped during the UI sample: "${main.status}"`);
    const byTab: Record<string, number> = { [UI_TABS[0]]: main.fps };
    for (const name of UI_TABS.slice(1)) {
      await tab(page, name).click();
      await page.waitForTimeout(250); // the tab's first frames mount it
      byTab[name] = (await sampleFrames(page, size.tabMs)).fps;
    }
    const chart = await chartFrames(page, size);
    return { idleFps, fps: main.fps, frameMsP95: main.frameMsP95, recordsPerSec: main.recordsPerSec, byTab, chartFps: chart.fps, chartFrameMsP95: chart.frameMsP95 };
  } finally {
    await context.close();
  }
}

/** Results on the view, switched to its chart, sampled while the job runs on at Max. */
async function chartFrames(page: Page, size: UiSize) {
  await openChart(page, CHART_VIEW);
  await page.waitForTimeout(500); // the first frames fetch the table's tail and build the series
  const s = await sampleFrames(page, size.measureMs);
  if (!/Running/.test(s.status)) throw new Error(`the run stopped during the chart sample: "${s.status}"`);
  return s;
}

async function headlessRun(benchPage: Page, doc: PipelineDocument, size: UiSize, round: number): Promise<number> {
  const r = await benchPage.evaluate((req) => window.weirBench.uiHeadless(req), { doc, warmupMs: size.warmupMs, measureMs: size.measureMs, jobId: `bench-ui-headless-${round}` });
  if (!r.ok) throw new Error(r.error);
  return r.recordsPerSec;
}

/** The ui.* figures; `log` reports each round. */
export async function uiSuite(browser: Browser, appUrl: string, benchPage: Page, size: UiSize, log: (s: string) => void = () => {}): Promise<Record<string, number>> {
  const doc = benchDoc();
  const runs: UiRun[] = [];
  const headless: number[] = [];
  for (let round = 0; round < size.warmups + size.runs; round++) {
    let ui: UiRun | undefined;
    let bare: number | undefined;
    // Alternate who goes first, so drift and the other side's leftovers spread evenly.
    for (const side of round % 2 ? ['headless', 'ui'] : ['ui', 'headless']) {
      if (side === 'ui') ui = await uiRun(browser, appUrl, doc, size);
      else bare = await headlessRun(benchPage, doc, size, round);
    }
    const tabs = Object.entries(ui!.byTab).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
    log(`    round ${round + 1}${round < size.warmups ? ' (warm-up)' : ''}: idle ${ui!.idleFps.toFixed(1)} fps, running ${ui!.fps.toFixed(1)} fps (p95 frame ${ui!.frameMsP95.toFixed(1)} ms), UI ${Math.round(ui!.recordsPerSec)} rec/s, headless ${Math.round(bare!)} rec/s; tabs: ${tabs}; chart ${ui!.chartFps.toFixed(1)} fps (p95 frame ${ui!.chartFrameMsP95.toFixed(1)} ms)`);
    if (round < size.warmups) continue;
    runs.push(ui!);
    headless.push(bare!);
  }
  const out: Record<string, number> = {
    'ui.fpsMedian': median(runs.map((r) => r.fps)),
    'ui.fpsIdle': median(runs.map((r) => r.idleFps)),
    'ui.frameMsP95': median(runs.map((r) => r.frameMsP95)),
    'ui.fpsChart': median(runs.map((r) => r.chartFps)),
    'ui.chartFrameMsP95': median(runs.map((r) => r.chartFrameMsP95)),
    'ui.recordsPerSecWithUi': median(runs.map((r) => r.recordsPerSec)),
    'ui.recordsPerSecHeadless': median(headless),
    // Paired per round: both sides ran back to back on the same machine state.
    'ui.throughputRatioWithUi': median(runs.map((r, i) => r.recordsPerSec / headless[i])),
  };
  for (const name of UI_TABS) out[`ui.fpsByTab.${name.toLowerCase()}`] = median(runs.map((r) => r.byTab[name]));
  return out;
}
