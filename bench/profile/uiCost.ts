// CPU the designer's main thread (and the whole renderer) spends while a sample of frames runs, from a
// Chromium trace's thread times (`tdur`): unlike fps, it barely moves when neighbours load the machine.
import type { Page } from 'playwright-core';
import { sampleFrames } from '../lib/uiPage.ts';

// The top-level task event's name differs between Chromium versions.
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

interface TraceEvent { name: string; ph: string; dur?: number; tdur?: number; tid: number; pid: number }

export async function measureCost(page: Page, seconds: number) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline', transferMode: 'ReportEvents' });
  const s = await sampleFrames(page, seconds * 1000);
  await cdp.send('Tracing.end');
  await done;
  const layouts = new Map<string, number>();
  for (const e of events) if (e.name === 'Layout' || e.name === 'UpdateLayoutTree') layouts.set(`${e.pid}:${e.tid}`, (layouts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...layouts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const cpuMs = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && TASKS.has(e.name)).reduce((a, e) => a + (e.tdur ?? 0) / 1000, 0);
  // Raster and compositing run on the renderer's other threads and take the same CPU from the job.
  const pid = main?.split(':')[0];
  const rendererMs = events.filter((e) => String(e.pid) === pid && e.ph === 'X' && TASKS.has(e.name)).reduce((a, e) => a + (e.tdur ?? 0) / 1000, 0);
  // UI_DEBUG=1 prints the main thread's top trace events by CPU time.
  if (process.env.UI_DEBUG) {
    const names = new Map<string, number>();
    for (const e of events) if (`${e.pid}:${e.tid}` === main && e.ph === 'X') names.set(e.name, (names.get(e.name) ?? 0) + (e.tdur ?? 0) / 1000);
    console.log([...names.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12));
  }
  return { fps: s.fps, rate: s.recordsPerSec, cpuPerSec: cpuMs / (s.ms / 1000), cpuPerFrame: cpuMs / Math.max(1, s.frames), rendererPerSec: rendererMs / (s.ms / 1000) };
}

