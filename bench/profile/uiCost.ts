// CPU the designer's main thread (and the whole renderer) spends while a sample of frames runs, from a
// Chromium trace's thread times (`tdur`): unlike fps, it barely moves when neighbours load the machine.
import type { Page } from 'playwright-core';
import { mainThread, traceWhileSampling } from '../lib/uiTrace.ts';

// The top-level task event's name differs between Chromium versions.
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

export async function measureCost(page: Page, seconds: number) {
  const { events, sample: s } = await traceWhileSampling(page, 'toplevel,devtools.timeline', seconds * 1000);
  const main = mainThread(events);
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
  return { fps: s.fps, frameMsP95: s.frameMsP95, rate: s.recordsPerSec, cpuPerSec: cpuMs / (s.ms / 1000), cpuPerFrame: cpuMs / Math.max(1, s.frames), rendererPerSec: rendererMs / (s.ms / 1000) };
}

