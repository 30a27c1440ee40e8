// The e2e test API. Spec files call `test(name, fn, options?)` at module top level;
// `e2e/run.ts` imports every spec, then runs what was registered, each test in a fresh browser
// context. Kept tiny on purpose: no @playwright/test, no browser downloads.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

export const artifactsDir = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
export const screenshotsDir = join(artifactsDir, 'screenshots');

export interface TestOptions {
  /** Whole-test budget, default 60 s. */
  timeoutMs?: number;
  /**
   * Console errors and uncaught page errors fail a test by default. `true` allows all of them;
   * a list of patterns allows only the matching ones (say, an error the test provokes on purpose).
   */
  allowConsoleErrors?: boolean | RegExp[];
}

export interface TestContext {
  /** A fresh page in a fresh browser context, already on about:blank. */
  page: Page;
  /** Origin of the app under test, e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  /** Saves e2e/artifacts/screenshots/<name>.png (full page) and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Waits until the locator is visible (default 15 s), else fails naming the locator. */
  expectVisible(locator: Locator, timeoutMs?: number): Promise<void>;
  /** Waits until the locator is hidden or gone. */
  expectHidden(locator: Locator, timeoutMs?: number): Promise<void>;
  /** Waits until the locator's text contains `expected` (or matches it). */
  expectText(locator: Locator, expected: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Waits until the locator matches exactly `count` elements. */
  expectCount(locator: Locator, count: number, timeoutMs?: number): Promise<void>;
  /** Polls `probe` until it returns a truthy value (which is returned), else fails with `what`. */
  waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs?: number): Promise<T>;
  /**
   * Lets the page also load from `origin`, another local server the test itself started (the
   * bench page). Everything else off the app's origin stays blocked.
   */
  allowOrigin(origin: string): void;
  /** Fails the test with `message` unless `condition` holds. */
  expect(condition: unknown, message: string): void;
}

export interface RegisteredTest {
  name: string;
  file: string;
  run: (t: TestContext) => Promise<void>;
  options: TestOptions;
}

const registry: RegisteredTest[] = [];
let currentFile = '<unknown>';

export function test(name: string, run: (t: TestContext) => Promise<void>, options: TestOptions = {}): void {
  if (registry.some((r) => r.name === name)) throw new Error(`duplicate e2e test name: ${name}`);
  registry.push({ name, file: currentFile, run, options });
}

/** Used by the runner only: tags tests with the spec file that registers them. */
export function setCurrentSpecFile(file: string): void {
  currentFile = file;
}

export function registeredTests(): readonly RegisteredTest[] {
  return registry;
}

export const DEFAULT_WAIT_MS = 15_000;

export function makeContext(page: Page, baseUrl: string, origins: Set<string> = new Set()): TestContext {
  const describe = (locator: Locator) => String(locator);
  const fail = (message: string): never => {
    throw new Error(message);
  };
  return {
    page,
    baseUrl,
    async screenshot(name) {
      mkdirSync(screenshotsDir, { recursive: true });
      const path = join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async expectVisible(locator, timeoutMs = DEFAULT_WAIT_MS) {
      await locator.first().waitFor({ state: 'visible', timeout: timeoutMs }).catch(() =>
        fail(`expected ${describe(locator)} to be visible within ${timeoutMs} ms`));
    },
    async expectHidden(locator, timeoutMs = DEFAULT_WAIT_MS) {
      await locator.first().waitFor({ state: 'hidden', timeout: timeoutMs }).catch(() =>
        fail(`expected ${describe(locator)} to be hidden within ${timeoutMs} ms`));
    },
    async expectText(locator, expected, timeoutMs = DEFAULT_WAIT_MS) {
      let last = '';
      const ok = await poll(async () => {
        last = (await locator.first().textContent({ timeout: 1_000 }).catch(() => null)) ?? '';
        return typeof expected === 'string' ? last.includes(expected) : expected.test(last);
      }, timeoutMs);
      if (!ok) fail(`expected ${describe(locator)} to have text ${String(expected)}, last saw ${JSON.stringify(last)}`);
    },
    async expectCount(locator, count, timeoutMs = DEFAULT_WAIT_MS) {
      let last = -1;
      const ok = await poll(async () => (last = await locator.count()) === count, timeoutMs);
      if (!ok) fail(`expected ${describe(locator)} to match ${count} element(s), last saw ${last}`);
    },
    async waitFor(what, probe, timeoutMs = DEFAULT_WAIT_MS) {
      let value: Awaited<ReturnType<typeof probe>> | undefined;
      const ok = await poll(async () => Boolean((value = await probe())), timeoutMs);
      if (!ok) fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
      return value as Awaited<ReturnType<typeof probe>>;
    },
    allowOrigin(origin) {
      const o = new URL(origin).origin;
      if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(o)) fail(`allowOrigin: ${o} is not a local server`);
      origins.add(o);
    },
    expect(condition, message) {
      if (!condition) fail(message);
    },
  };
}

async function poll(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
