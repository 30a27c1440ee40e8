// One bench-page suite without the whole bench, built into a private directory (a concurrent `npm run bench`
// keeps bench/dist): `node --import tsx bench/profile/suiteProbe.ts checkpoint '{"keys":100000}' [rounds]`.
import { build } from 'vite';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../lib/server.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = `/tmp/weir-suite-probe-${process.pid}`;
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const [suite = 'checkpoint', argsText = '{}', roundsText = '3'] = process.argv.slice(2);
await build({ configFile: `${here}vite.config.ts`, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await serveStatic(outDir);
const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  const figs = await page.evaluate((req) => window.weirBench.runSuite(req), { suite, plan: { runs: Number(roundsText), warmups: 1 }, args: JSON.parse(argsText) });
  for (const [k, v] of Object.entries(figs)) console.log(`${k} ${typeof v === 'number' ? v.toFixed(3) : v}`);
} finally {
  await browser.close();
  await server.close();
  execSync(`rm -rf ${outDir}`);
}
