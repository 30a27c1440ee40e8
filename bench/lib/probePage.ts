// The bench page for one-off probes (bench/profile/*Probe.ts), built into a private directory so that
// a concurrent `npm run bench` keeps bench/dist.
import { build } from 'vite';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { serveStatic } from './server.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function openProbePage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const outDir = `/tmp/weir-bench-probe-${process.pid}`;
  await build({ configFile: `${here}vite.config.ts`, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await serveStatic(outDir);
  const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  return {
    page,
    close: async () => {
      await browser.close();
      await server.close();
      execSync(`rm -rf ${outDir}`);
    },
  };
}
