// The runtime lab page built into a private directory and served cross-origin isolated, as the
// bench page is: the lab is never part of the production build.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { serveBuiltPage } from '../../bench/lib/probePage.ts';
import type { TestContext } from '../harness.ts';

export function serveLabPage(): Promise<{ url: string; close: () => Promise<void> }> {
  return serveBuiltPage(fileURLToPath(new URL('./vite.config.ts', import.meta.url)), 'weir-lab-page-');
}

/** One lab server for the whole e2e run: a reload must come back to the same origin (its IndexedDB). The run's exit closes it. */
let lab: Promise<{ url: string }> | null = null;

/** Opens the lab page in the test's tab, building and serving it on first use. */
export async function openLab(t: TestContext): Promise<Page> {
  const { url } = await (lab ??= serveLabPage());
  t.allowOrigin(url);
  await t.page.goto(url);
  await t.page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  return t.page;
}
