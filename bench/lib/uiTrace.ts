// A Chromium trace recorded while the designer samples frames, for the UI profiling tools in bench/profile/.
import type { Browser, Page } from 'playwright-core';
import { CHART_TAB, openChart, sampleFrames, startRun, tab } from './uiPage.ts';
import { benchDoc, CHART_VIEW } from '../suites/ui.ts';
import { LAUNCH_ARGS } from './launchArgs.ts';

export interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  tid: number;
  pid: number;
  args?: { data?: { nodeName?: string; reason?: string; frame?: string } };
}

export { LAUNCH_ARGS };

/** A fresh page running the ui suite's job at Max with `tabName` open (`Chart`: the view's live chart), and `css`, a style sheet to try, applied. */
export async function runningPage(browser: Browser, appUrl: string, tabName: string, css = process.env.UI_CSS): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await startRun(page, appUrl, benchDoc(), 'per_minute');
  if (tabName === CHART_TAB) await openChart(page, CHART_VIEW);
  else await tab(page, tabName).click();
  if (css) await page.addStyleTag({ content: css });
  return page;
}

/** Trace events of `categories` over a frame sample of `ms`. */
export async function traceWhileSampling(page: Page, categories: string, ms: number): Promise<{ events: TraceEvent[]; sample: Awaited<ReturnType<typeof sampleFrames>> }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  const sample = await sampleFrames(page, ms);
  await cdp.send('Tracing.end');
  await done;
  return { events, sample };
}

/** The renderer's main thread as `pid:tid`: the thread that ran the most layout work. */
export function mainThread(events: readonly TraceEvent[]): string | undefined {
  const layouts = new Map<string, number>();
  for (const e of events) if (e.name === 'Layout' || e.name === 'UpdateLayoutTree') layouts.set(`${e.pid}:${e.tid}`, (layouts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  return [...layouts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
