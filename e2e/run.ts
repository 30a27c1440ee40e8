// The e2e runner: `node --import tsx e2e/run.ts [--base-url URL] [--grep TEXT] [--specs DIR]`.
// Imports every e2e/specs/*.spec.ts, launches Chromium once, and runs each registered test in a
// fresh browser context with its own page. A test fails when it throws, times out, logs a console
// error or throws an uncaught page error (unless it opts out), or when the page asks for anything
// that is not on the app's own origin: requests elsewhere are aborted and listed, which proves the
// app fetches nothing from a CDN. The last line printed is `N passed, N failed`.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import {
  DEFAULT_WAIT_MS, makeContext, registeredTests, setCurrentSpecFile, type RegisteredTest,
} from './harness.ts';

const e2eDir = dirname(fileURLToPath(import.meta.url));
const DEFAULT_TEST_TIMEOUT_MS = 60_000;
// Exactly these flags: headless, no sandbox (CI runs as root), and nothing that phones home.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

interface Options { baseUrl: string; grep?: string; specsDir: string }

function parseArgs(argv: string[]): Options {
  let baseUrl = process.env.WEIR_BASE_URL ?? 'http://localhost:4173';
  let grep: string | undefined;
  let specsDir = join(e2eDir, 'specs');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${arg} needs a value`);
      return v;
    };
    if (arg === '--grep' || arg === '-g') grep = value();
    else if (arg.startsWith('--grep=')) grep = arg.slice('--grep='.length);
    else if (arg === '--base-url') baseUrl = value();
    else if (arg.startsWith('--base-url=')) baseUrl = arg.slice('--base-url='.length);
    else if (arg === '--specs') specsDir = value();
    else usage(`unknown argument ${arg}`);
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), grep, specsDir };
}

function usage(problem: string): never {
  console.error(`e2e: ${problem}\nusage: node --import tsx e2e/run.ts [--base-url URL] [--grep TEXT] [--specs DIR]`);
  process.exit(2);
}

function chromiumPath(): string {
  const candidates = [process.env.WEIR_CHROMIUM, process.env.CHROME_PATH, '/usr/bin/chromium'];
  const found = candidates.find((p): p is string => Boolean(p) && existsSync(p as string));
  if (!found) {
    console.error('e2e: no Chromium found; set WEIR_CHROMIUM or CHROME_PATH (scripts/ensure-chromium.sh finds one)');
    process.exit(2);
  }
  return found;
}

async function loadSpecs(specsDir: string): Promise<RegisteredTest[]> {
  const files = existsSync(specsDir)
    ? readdirSync(specsDir).filter((f) => f.endsWith('.spec.ts')).sort()
    : [];
  for (const file of files) {
    setCurrentSpecFile(relative(process.cwd(), join(specsDir, file)));
    await import(pathToFileURL(join(specsDir, file)).href);
  }
  return [...registeredTests()];
}

function allowed(message: string, allow: boolean | RegExp[] | undefined): boolean {
  if (allow === true) return true;
  return Array.isArray(allow) && allow.some((re) => re.test(message));
}

/** Routes every request of the context; anything off the app's origin is aborted and recorded. */
async function confineToOrigin(context: BrowserContext, origins: ReadonlySet<string>, blocked: string[]): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url, origins)) return route.fallback();
    blocked.push(url);
    await route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, (ws) => {
    const wsOrigin = ws.url().replace(/^ws/, 'http');
    if (isLocal(wsOrigin, origins)) ws.connectToServer();
    else {
      blocked.push(ws.url());
      ws.close();
    }
  });
}

function isLocal(url: string, origins: ReadonlySet<string>): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    return origins.has(new URL(url).origin);
  } catch {
    return false;
  }
}

async function runOne(browser: Browser, test: RegisteredTest, baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const blocked: string[] = [];
  const errors: string[] = [];
  const allow = test.options.allowConsoleErrors;
  const origins = new Set([origin]);
  try {
    await confineToOrigin(context, origins, blocked);
    context.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const where = msg.location().url ? ` (${msg.location().url}:${msg.location().lineNumber})` : '';
      const text = `console.error: ${msg.text()}${where}`;
      if (!allowed(text, allow)) errors.push(text);
    });
    context.on('weberror', (err) => {
      const error = err.error();
      const text = `uncaught: ${error.stack ?? error.message}`;
      if (!allowed(text, allow)) errors.push(text);
    });
    const page = await context.newPage();
    page.setDefaultTimeout(DEFAULT_WAIT_MS);
    page.setDefaultNavigationTimeout(30_000);
    const t = makeContext(page, baseUrl, origins);

    const timeoutMs = test.options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const running = test.run(t);
    running.catch(() => { /* reported through the race below; never an unhandled rejection */ });
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TestTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    let failure: unknown;
    try {
      await Promise.race([running, timedOut]);
    } catch (e) {
      failure = e;
    } finally {
      clearTimeout(timer);
    }
    const problems: string[] = [];
    if (failure !== undefined) problems.push(describeFailure(failure));
    if (blocked.length) problems.push(`requests left the app's origin (${origin}) and were blocked:\n  ${[...new Set(blocked)].join('\n  ')}`);
    if (errors.length) problems.push(`console/page errors (opt out with allowConsoleErrors):\n  ${errors.join('\n  ')}`);
    if (problems.length) {
      await t.screenshot(`FAILED-${test.name}`).catch(() => undefined);
      throw new Error(problems.join('\n'));
    }
  } finally {
    await context.close().catch(() => undefined);
  }
}

class TestTimeout extends Error {}

function describeFailure(failure: unknown): string {
  if (failure instanceof TestTimeout) return failure.message; // the runner's own stack says nothing
  if (failure instanceof Error) return failure.stack ?? failure.message;
  return String(failure);
}

function indent(text: string): string {
  return text.split('\n').map((l) => `    ${l}`).join('\n');
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const all = await loadSpecs(options.specsDir);
  const needle = options.grep?.toLowerCase();
  const tests = needle === undefined ? all : all.filter((t) => t.name.toLowerCase().includes(needle));
  if (tests.length === 0) {
    console.log(all.length === 0 ? `e2e: no tests found in ${options.specsDir}/*.spec.ts` : `e2e: no test name contains "${options.grep}"`);
    console.log('0 passed, 1 failed');
    return 1;
  }

  const executablePath = chromiumPath();
  console.log(`e2e: ${tests.length} test(s) against ${options.baseUrl} with ${executablePath}`);
  // Without a userDataDir, Playwright gives Chromium a fresh empty temporary --user-data-dir and
  // deletes it on close; passing --user-data-dir in args is refused by Playwright, and a
  // persistent context could not hand each test its own fresh context.
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  let passed = 0;
  let failed = 0;
  try {
    for (const test of tests) {
      const started = performance.now();
      try {
        if (!browser.isConnected()) throw new Error('Chromium is no longer running');
        await runOne(browser, test, options.baseUrl);
        passed++;
        console.log(`✓ ${test.name} (${Math.round(performance.now() - started)} ms)`);
      } catch (e) {
        failed++;
        console.log(`✗ ${test.name} [${test.file}] (${Math.round(performance.now() - started)} ms)`);
        console.log(indent(e instanceof Error ? e.message : String(e)));
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error('e2e: runner crashed:', e);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
