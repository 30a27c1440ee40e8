// The bench page built into a private directory (a concurrent `npm run bench` keeps bench/dist): for one-off
// probes (bench/profile/*Probe.ts) and for the e2e smoke of the browser-only suites.
import { build } from 'vite';
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { serveStatic } from './server.ts';
import { LAUNCH_ARGS } from './launchArgs.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the bench page into a fresh directory and serves it cross-origin isolated. */
export function serveBenchPage(): Promise<{ url: string; close: () => Promise<void> }> {
  return serveBuiltPage(`${here}vite.config.ts`, 'weir-bench-page-');
}

/** Builds the page of a Vite config into a fresh directory and serves it cross-origin isolated. */
export async function serveBuiltPage(configFile: string, prefix: string): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), prefix));
  await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await serveStatic(outDir);
  return {
    url: server.url,
    close: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

export async function openProbePage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const served = await serveBenchPage();
  const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  const page = await browser.newPage();
  await page.goto(served.url);
  await page.waitForSelector('body[data-ready="true"]');
  return {
    page,
    close: async () => {
      await browser.close();
      await served.close();
    },
  };
}
