// Drives the real designer in a page: imports a document, sets speed to Max, selects a node, runs,
// opens bottom tabs, and samples frames inside the page with requestAnimationFrame timestamps.
import type { Page } from 'playwright-core';

export interface FrameSample {
  frames: number;
  ms: number;
  fps: number;
  /** 95th percentile of the gaps between consecutive frames. */
  frameMsP95: number;
  /** Source records per second from the run status pill (the worker's snapshots) over the sample. */
  recordsPerSec: number;
  status: string;
}

/** Runs inside the page: must not close over anything. */
async function sampleInPage(ms: number): Promise<FrameSample> {
  const pill = document.querySelector('.status-pill');
  if (!pill) throw new Error('no run status pill (.status-pill) on the page');
  const recordsOf = (text: string) => Number((/([\d,.\s\u00a0]+)\s*records/.exec(text)?.[1] ?? '').replace(/\D/g, '') || NaN);
  const counts: { at: number; records: number }[] = [];
  const note = () => counts.push({ at: performance.now(), records: recordsOf(pill.textContent ?? '') });
  const observer = new MutationObserver(note);
  observer.observe(pill, { subtree: true, characterData: true, childList: true });
  note();
  const stamps: number[] = [];
  await new Promise<void>((resolve) => {
    const start = performance.now();
    const tick = (t: number) => {
      stamps.push(t);
      if (t - start >= ms) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  observer.disconnect();
  const gaps = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
  const span = stamps[stamps.length - 1] - stamps[0];
  // The first reading is the pill before the sample; rates use only readings the snapshots changed.
  const first = counts[0];
  const last = counts[counts.length - 1];
  return {
    frames: stamps.length - 1,
    ms: span,
    fps: ((stamps.length - 1) * 1000) / span,
    frameMsP95: gaps[Math.min(gaps.length - 1, Math.ceil(gaps.length * 0.95) - 1)] ?? NaN,
    recordsPerSec: last.at > first.at ? ((last.records - first.records) * 1000) / (last.at - first.at) : NaN,
    status: pill.textContent ?? '',
  };
}

// tsx (esbuild keepNames) wraps nested functions in __name(), which the page does not have.
export const sampleFrames = (page: Page, ms: number): Promise<FrameSample> =>
  page.evaluate(`(() => { const __name = (f) => f; return (${sampleInPage.toString()})(${Number(ms)}); })()`) as Promise<FrameSample>;

export const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

/** The pseudo tab the profiling tools accept besides the bottom panel's own: Results on a view, as its live chart. */
export const CHART_TAB = 'Chart';

/** Results on `view`, switched to its chart, once the chart is drawn. */
export async function openChart(page: Page, view: string): Promise<void> {
  await tab(page, 'Results').click();
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('tab', { name: view }).click();
  await panel.getByRole('button', { name: 'Chart', exact: true }).click();
  await panel.getByRole('img', { name: /chart of/ }).waitFor();
}

/** Opens the app, imports `doc` through "Open file", sets speed Max, selects `nodeId` and starts the run. */
export async function startRun(page: Page, appUrl: string, doc: unknown, nodeId: string, beforeRun?: () => Promise<void>): Promise<void> {
  await page.goto(appUrl);
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  await page.locator('.react-flow__pane').waitFor();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'bench.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  const node = page.locator(`.react-flow__node[data-id="${nodeId}"]`);
  await node.waitFor();
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await node.locator('.op-label').click();
  if (beforeRun) await beforeRun();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  for (let i = 0; i < 100 && !/Running/.test((await status.textContent()) ?? ''); i++) await page.waitForTimeout(100);
  const text = (await status.textContent()) ?? '';
  if (!/Running/.test(text)) throw new Error(`the designer did not start the run of "${nodeId}"'s document: status "${text}"`);
}
