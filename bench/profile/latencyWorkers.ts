// CPU profiles of every thread of the latency run in Chromium (the page and each Web Worker, through a raw CDP
// connection that auto-attaches the workers): `node --import tsx bench/profile/latencyWorkers.ts '{"seconds":6}' outDir [profileMs]`;
// profiling stops after profileMs (default 3000), before the run ends and its workers with it.
// Writes one .cpuprofile per thread (summarise with bench/profile/summarize.ts).
import { chromium } from 'playwright-core';
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import { serveBenchPage } from '../lib/probePage.ts';
import { LAUNCH_ARGS } from '../lib/launchArgs.ts';
import { QUICK } from '../sizes.ts';

const size = { ...QUICK.latency, ...(JSON.parse(process.argv[2] ?? '{}') as object), searchSteps: 0 };
const outDir = process.argv[3] ?? '/tmp/weir-latency-profiles';
const profileMs = Number(process.argv[4] ?? 3000);
mkdirSync(outDir, { recursive: true });
const port = 9300 + Math.floor(Math.random() * 500);
const served = await serveBenchPage();
const executablePath = execSync('bash scripts/ensure-chromium.sh', { encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, headless: true, args: [...LAUNCH_ARGS, `--remote-debugging-port=${port}`] });
try {
  const page = await browser.newPage();
  await page.goto(served.url);
  await page.waitForSelector('body[data-ready="true"]');
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string; url: string }[];
  const pageTarget = targets.find((t) => t.type === 'page' && t.url.startsWith(served.url))!;
  const ws = new WebSocket(pageTarget.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((r) => ws.once('open', r));
  let seq = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  const sessions: { id: string | undefined; name: string }[] = [{ id: undefined, name: 'page' }];
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<any>((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.id && waiting.has(m.id)) {
      waiting.get(m.id)!(m.result);
      waiting.delete(m.id);
    } else if (m.method === 'Target.attachedToTarget') {
      const sid = m.params.sessionId as string;
      sessions.push({ id: sid, name: `worker-${sessions.length}` });
      void send('Profiler.enable', {}, sid).then(() => send('Profiler.setSamplingInterval', { interval: 200 }, sid)).then(() => send('Profiler.start', {}, sid));
      void send('Runtime.runIfWaitingForDebugger', {}, sid);
      void send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sid);
    }
  });
  await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  await send('Profiler.start');
  const running = page.evaluate(([s]) => window.weirBench.latency(s, { runs: 1, warmups: 0 }), [size] as const);
  // The workers end with the run, and their profiles with them: stop while the job still runs.
  await new Promise((r) => setTimeout(r, profileMs));
  for (const s of sessions) {
    const res = await Promise.race([send('Profiler.stop', {}, s.id), new Promise((r) => setTimeout(() => r(null), 2000))]);
    if (res) writeFileSync(`${outDir}/${s.name}.cpuprofile`, JSON.stringify((res as { profile: unknown }).profile));
  }
  console.log(JSON.stringify(await running));
  ws.close();
} finally {
  await browser.close();
  await served.close();
}
