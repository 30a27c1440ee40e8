// The Chromium leg of `npm run chaos -- --load N --browser`: the latency load trial on Web Workers
// in the e2e lab page (a CPU hog of Web Workers beside the job), in headless Chromium.
import { execSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { LAUNCH_ARGS } from '../bench/lib/launchArgs.ts';
import { serveLabPage } from '../e2e/lab/serveLab.ts';
import type { LoadTrialResult } from '../src/testing/chaos/loadTrial.ts';
import type {} from '../e2e/lab/lab.ts';

type Trial = (o: { records: number; keys: number; checkpointIntervalMs: number; run: number }) => Promise<LoadTrialResult>;

export async function browserLoadRuns(n: number, loadRuns: (where: string, n: number, trial: Trial) => Promise<number>): Promise<number> {
  const executablePath = process.env.WEIR_CHROMIUM || execSync('bash scripts/ensure-chromium.sh', { encoding: 'utf8' }).trim();
  const lab = await serveLabPage();
  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(lab.url);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    return await loadRuns('Chromium Web Workers', n, (o) => page.evaluate((x) => window.__weirLab.loadTrial(x), o));
  } finally {
    await browser.close();
    await lab.close();
  }
}
