// `npm run bench [-- --quick] [-- --only=keyedCount,nexmark]`: builds the bench page, serves it
// cross-origin isolated, drives headless Chromium with playwright-core (a Chromium that is already
// installed; never a download), adds the Node figures, prints the table and writes
// bench/results.json and bench/report.md (a full run) or bench/partial/ (--quick, --only).
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { serveStatic } from './lib/server.ts';
import { FULL, QUICK, type Sizes } from './sizes.ts';
import { FIGURES, NODE_TWINS, PENDING } from './figures.ts';
import { renderReport, table, type Results } from './report.ts';
import { FLINK_PER_CORE } from './nexmark/index.ts';
import { now } from './lib/stats.ts';
import { buildAndServeApp } from './lib/appServer.ts';
import { uiSuite } from './suites/ui.ts';
import { LAUNCH_ARGS } from './lib/launchArgs.ts';
import { outputPaths, runModeOf } from './output.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const { quick, only } = runModeOf(argv);
const out = outputPaths(here, { quick, only });
const sizes: Sizes = quick ? QUICK : FULL;
const want = (suite: string) => !only || only.includes(suite);
const log = (s: string) => process.stderr.write(`${s}\n`);


async function browserFigures(page: Page): Promise<Results> {
  const out: Results = {};
  const suite = async (name: string, args: Record<string, unknown>) => {
    if (!want(name)) return;
    const t0 = now();
    log(`  ${name} …`);
    const figs = await page.evaluate((req) => window.weirBench.runSuite(req), { suite: name, plan: sizes.plan, args });
    Object.assign(out, figs);
    log(`  ${name} done in ${((now() - t0) / 1000).toFixed(1)} s`);
  };
  await suite('keyedCount', { size: sizes.keyedCount });
  if (want('crossWorker')) {
    log('  crossWorker …');
    Object.assign(out, await page.evaluate(([s, p]) => window.weirBench.crossWorker(s, p), [sizes.crossWorker, sizes.plan] as const));
  }
  if (want('latency')) {
    log('  latency …');
    Object.assign(out, await page.evaluate(([s, p]) => window.weirBench.latency(s, p), [sizes.latency, sizes.plan] as const));
  }
  await suite('stateBackend', { size: sizes.stateBackend });
  await suite('checkpoint', { keys: sizes.checkpointKeys });
  await suite('checkpointScaling', { sizes: sizes.checkpointScaling });
  await suite('scaling', { events: sizes.scalingEvents, keys: sizes.scalingKeys });
  // The 1M-key points: the throughput one, and a full checkpoint of 1M keys when the checkpoint suite ran smaller.
  if (want('scaling')) Object.assign(out, await page.evaluate((req) => window.weirBench.runSuite(req), { suite: 'scaling', plan: sizes.largePlan, args: { events: 0, keys: sizes.largeKeys } }));
  if (want('checkpointScaling') && sizes.largeCheckpoint && sizes.checkpointKeys < 1_000_000) {
    Object.assign(out, await page.evaluate((req) => window.weirBench.runSuite(req), { suite: 'checkpointScaling', plan: sizes.largePlan, args: { sizes: { keys1M: 1_000_000 } } }));
  }
  await suite('nexmark', { events: sizes.nexmarkEvents });
  await suite('incremental', sizes.incremental);
  return out;
}

function nodeFigures(): Results {
  const out: Results = {};
  const lastLine = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Results;
  const script = (file: string, args: (string | number)[], flags: string[] = []) =>
    lastLine(execFileSync(process.execPath, [...flags, '--import', 'tsx', `${here}node/${file}`, ...args.map(String)], { cwd: root, encoding: 'utf8' }));
  const twins = NODE_TWINS.filter(want);
  if (twins.length) {
    log(`  ${twins.join(', ')} in Node (the same suites as in the bench page) …`);
    Object.assign(out, script('twins.ts', [twins.join(','), sizes.keyedCount.events, sizes.keyedCount.keys, sizes.nexmarkEvents, sizes.plan.runs, sizes.plan.warmups]));
  }
  if (want('memory')) {
    log('  memory (Node, --expose-gc) …');
    Object.assign(out, script('memory.ts', [sizes.memoryKeys], ['--expose-gc']));
  }
  if (want('inProcess')) {
    log('  inProcess (Node: the in-process runtime, CPU per record) …');
    const { events, keys } = sizes.keyedCount;
    Object.assign(out, script('inProcess.ts', [events, keys, sizes.plan.runs, sizes.plan.warmups]));
  }
  if (want('threaded')) {
    log('  threaded (Node worker_threads: CPU over all threads per record) …');
    const t = sizes.threaded;
    Object.assign(out, script('threaded.ts', [t.events, t.keys, t.parallelism, t.checkpointIntervalMs, sizes.plan.runs, sizes.plan.warmups]));
  }
  if (want('csv')) {
    log('  csv ingest (Node) …');
    Object.assign(out, script('csvIngest.ts', [sizes.csvRows]));
  }
  if (want('stepBack')) {
    log('  stepBack (Node): step-back latency at 10k records into a designer run …');
    Object.assign(out, script('stepBack.ts', [10_000, quick ? 3 : 9]));
  }
  if (want('sqlImport')) {
    log('  sqlImport (Node): planning a 50-statement Flink SQL script …');
    Object.assign(out, script('sqlImport.ts', [quick ? 10 : 30]));
  }
  return out;
}

async function main(): Promise<void> {
  const t0 = now();
  log(`weir bench (${quick ? 'quick' : 'full'}): building the bench page …`);
  await build({ configFile: `${here}vite.config.ts`, logLevel: 'error' });
  const server = await serveStatic(`${here}dist`);
  const executablePath = execSync('bash scripts/ensure-chromium.sh', { cwd: root, encoding: 'utf8' }).trim();
  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  // --only re-measures some suites: the other figures of an earlier run stay instead of turning null.
  const base = out.base.find((f) => existsSync(f));
  const results: Results = base ? (JSON.parse(readFileSync(base, 'utf8')) as Results) : {};
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    if (!(await page.evaluate(() => window.weirBench.isolated()))) log('warning: the bench page is not cross-origin isolated');
    log('running in headless Chromium workers:');
    Object.assign(results, await browserFigures(page));
    if (want('ui')) {
      log('  ui: building the designer app and driving it in its own pages …');
      const app = await buildAndServeApp();
      try {
        Object.assign(results, await uiSuite(browser, app.url, page, sizes.ui, log));
      } finally {
        await app.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  Object.assign(results, nodeFigures());
  // checkpoint.fullMs1MKeys is the top point of the checkpoint-scaling curve.
  const cpName = Object.entries({ ...sizes.scalingKeys, ...sizes.largeKeys }).find(([, k]) => k === sizes.checkpointKeys)?.[0];
  if (cpName && results['checkpoint.fullMs1MKeys'] !== undefined) results[`scaling.checkpointMs.${cpName}`] = results['checkpoint.fullMs1MKeys'];
  for (const [q, v] of Object.entries(FLINK_PER_CORE)) results[`nexmark.${q}.flinkPerCore`] = v;
  for (const f of FIGURES) if (!(f.name in results)) results[f.name] = null;
  for (const name of Object.keys(PENDING)) results[name] ??= null;

  const sorted = Object.fromEntries(Object.keys(results).sort().map((k) => [k, results[k]]));
  mkdirSync(dirname(out.results), { recursive: true });
  writeFileSync(out.results, `${JSON.stringify(sorted, null, 2)}\n`);
  const optimizations = readFileSync(`${here}optimizations.md`, 'utf8');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${executablePath}`;
  const durationSec = (now() - t0) / 1000;
  const baseName = base ? relative(root, base) : null;
  writeFileSync(out.report, renderReport({ results: sorted, mode: quick ? 'quick' : 'full', sizes: { ...sizes }, machine, optimizations, durationSec, only, base: baseName, resultsFile: relative(root, out.results) }));
  console.log(table(sorted));
  log(`\nwrote ${relative(root, out.results)} and ${relative(root, out.report)} in ${durationSec.toFixed(0)} s${out.full ? '' : ' (not a full run: bench/results.json and bench/report.md are untouched)'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
