// Latency experiments without the whole bench: `node --import tsx bench/profile/latencyProbe.ts '{"ratePerSec":20000}' [runs]`.
// Builds the bench page into a private directory (so a concurrent `npm run bench` keeps bench/dist), then runs
// the latency suite with QUICK's sizes overridden by the JSON argument and prints each median.
import { build } from 'vite';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../lib/server.ts';
import { QUICK } from '../sizes.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = '/tmp/weir-latency-probe';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const variants = (process.argv[2] ?? '{}').split(';').map((s) => JSON.parse(s) as Record<string, number>);
const runs = Number(process.argv[3] ?? 3);
await build({ configFile: `${here}vite.config.ts`, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await serveStatic(outDir);
const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
try {
  const page = await browser.newPage();
  page.on('console', (m) => process.stderr.write(`page: ${m.text()}\n`));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  for (let r = 0; r < runs; r++) {
    for (const v of variants) {
      const size = { ...QUICK.latency, ...v };
      const figs = await page.evaluate(([s]) => window.weirBench.latency(s, { runs: 1, warmups: 0 }), [size] as const);
      console.log(JSON.stringify(v), `p50 ${figs['latency.p50Ms']?.toFixed(0)} p99 ${figs['latency.p99Ms']?.toFixed(0)} achieved ${Math.round(figs['latency.achievedEventsPerSec'] ?? 0)} cps ${figs['latency.checkpointsPerRun']}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
