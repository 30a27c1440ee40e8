// Trees' bench code side by side in headless Chromium (bench/profile/*AbPage.ts): each side an esbuild bundle of a
// module of its tree, and a page that runs them. `runAbInWorker` runs all sides in one worker; `runAbPage` hands the
// page its own script (crossWorkerAbPage.ts starts a pair of workers per side).
import { build } from 'esbuild';
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './server.ts';
import { LAUNCH_ARGS } from './launchArgs.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles `<side>.js` per side of `trees` (side name → tree; the names `exports(side)` lists, from `module` of that
 * tree), writes `worker` beside them (it imports './<side>.js' for each, posts `{ partial }` as it goes and
 * `{ done }` at the end), runs `req` through it and returns what it posted as done. Partial results go to stderr.
 */
export async function runAbInWorker(trees: Record<string, string>, module: string, exports: (side: string) => string, worker: string, req: unknown): Promise<unknown> {
  const bundles = Object.fromEntries(Object.keys(trees).map((side) => [side, { tree: trees[side], module, exports: exports(side) }]));
  const page = `window.ab = (req) => new Promise((res, rej) => { const w = new Worker('./worker.js', { type: 'module' }); w.onerror = (e) => rej(new Error(e.message)); w.onmessage = (e) => { if (e.data.partial) console.log(JSON.stringify(e.data.partial)); else res(e.data.done); }; w.postMessage(req); });`;
  return runAbPage(bundles, { 'worker.js': worker }, page, req);
}

/** One bundle of the page: `exports` of `module` in `tree`, or (no exports) the module itself, as a worker's script. */
export interface AbBundle {
  tree: string;
  module: string;
  exports?: string;
}

/**
 * Bundles `<name>.js` per entry of `bundles`, writes `files` beside them, and runs a page whose module script is
 * `pageScript` (it defines `window.ab(req)`, a promise of the result; its console goes to stderr).
 */
export async function runAbPage(bundles: Record<string, AbBundle>, files: Record<string, string>, pageScript: string, req: unknown): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-ab-'));
  const server = await (async () => {
    for (const [name, b] of Object.entries(bundles)) {
      let entry = resolve(b.tree, b.module);
      if (b.exports !== undefined) {
        entry = join(dir, `${name}-entry.ts`);
        writeFileSync(entry, `export { ${b.exports} } from ${JSON.stringify(resolve(b.tree, b.module))};\n`);
      }
      await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', outfile: join(dir, `${name}.js`), logLevel: 'error', nodePaths: [join(root, 'node_modules')] });
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'index.html'), `<!doctype html><script type="module">${pageScript}</script>`);
    return serveStatic(dir);
  })();
  const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => console.error(m.text()));
    await page.goto(server.url);
    // The results come back whole from evaluate (a last console message can be lost at close).
    return await page.evaluate((r) => (window as unknown as { ab: (r: unknown) => Promise<unknown> }).ab(r), req);
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
