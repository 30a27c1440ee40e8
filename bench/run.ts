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
import { FIGURES, NEXMARK_QUERY_IDS, NODE_TWINS, PENDING, nodeTwin } from './figures.ts';
import { TimedOut, failedFigures, figuresOf, withTimeout } from './lib/guard.ts';
import { renderReport, table, type Results } from './report.ts';
import { FLINK_PER_CORE } from './nexmark/index.ts';
import { now } from './lib/stats.ts';
import { buildAndServeApp } from './lib/appServer.ts';
import { uiSuite } from './suites/ui.ts';
import { sqlEditorSuite } from './suites/sqlEditor.ts';
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


/** `--timeout=<s>` overrides every suite's and query's deadline (to try the guard itself). */
const timeoutArg = argv.find((a) => a.startsWith('--timeout='));
const timeouts = timeoutArg ? { suiteMs: Number(timeoutArg.slice(10)) * 1000, nexmarkQueryMs: Number(timeoutArg.slice(10)) * 1000 } : sizes.timeouts;
const failures: string[] = [];

/**
 * Runs one suite under its deadline. A suite that throws or times out gives failed figures (the
 * reason in each, and under bench.failed.<name>) and the run goes on; `reset` then stops what the
 * suite left running.
 */
async function guarded(name: string, prefixes: readonly string[], ms: number, run: () => Promise<Results>, reset: () => Promise<void>): Promise<Results> {
  const t0 = now();
  log(`  ${name} …`);
  try {
    const figs = await withTimeout(ms, run);
    log(`  ${name} done in ${((now() - t0) / 1000).toFixed(1)} s`);
    return figs;
  } catch (e) {
    const reason = e instanceof TimedOut ? e.message : `threw: ${String((e as Error)?.message ?? e).split('\n')[0]}`;
    log(`  ${name} FAILED after ${((now() - t0) / 1000).toFixed(1)} s: ${reason}; going on with the next suite`);
    failures.push(`${name}: ${reason}`);
    await reset().catch((err) => log(`  (resetting after ${name} failed too: ${(err as Error).message})`));
    return failedFigures(name, figuresOf(prefixes), reason);
  }
}

async function browserFigures(page: Page): Promise<Results> {
  const out: Results = {};
  // Reloading the page ends every worker a timed-out suite left running.
  const reset = async () => {
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
  };
  // `label` names the part in the log and under bench.failed.<label>: a Nexmark query is `nexmark.q5`.
  const inPage = async (name: string, prefixes: readonly string[], run: () => Promise<Results>, ms = timeouts.suiteMs, label = name) => {
    if (want(name)) Object.assign(out, await guarded(label, prefixes, ms, run, reset));
  };
  const suite = (name: string, args: Record<string, unknown>, plan = sizes.plan) =>
    () => page.evaluate((req) => window.weirBench.runSuite(req), { suite: name, plan, args });
  await inPage('keyedCount', ['keyedCount.'], suite('keyedCount', { size: sizes.keyedCount }));
  await inPage('crossWorker', ['crossWorker.'], () => page.evaluate(([s, p]) => window.weirBench.crossWorker(s, p), [sizes.crossWorker, sizes.plan] as const));
  await inPage('latency', ['latency.'], () => page.evaluate(([s, p]) => window.weirBench.latency(s, p), [sizes.latency, sizes.plan] as const));
  await inPage('stateBackend', ['stateBackend.'], suite('stateBackend', { size: sizes.stateBackend }));
  await inPage('checkpoint', ['checkpoint.', 'recovery.'], suite('checkpoint', { keys: sizes.checkpointKeys }));
  await inPage('checkpointScaling', ['scaling.checkpointMs.'], async () => {
    const figs = await suite('checkpointScaling', { sizes: sizes.checkpointScaling })();
    // A full checkpoint of 1M keys for the top of the curve when the checkpoint suite ran smaller.
    if (sizes.largeCheckpoint && sizes.checkpointKeys < 1_000_000) Object.assign(figs, await suite('checkpointScaling', { sizes: { keys1M: 1_000_000 } }, sizes.largePlan)());
    return figs;
  });
  await inPage('scaling', ['scaling.eventsPerSec.'], async () => {
    const figs = await suite('scaling', { events: sizes.scalingEvents, keys: sizes.scalingKeys })();
    // The 1M-key throughput point.
    return Object.assign(figs, await suite('scaling', { events: 0, keys: sizes.largeKeys }, sizes.largePlan)());
  });
  // Each query on its own deadline: one that hangs fails alone.
  if (want('nexmark')) {
    for (const q of NEXMARK_QUERY_IDS) await inPage('nexmark', [`nexmark.${q}.`], suite('nexmark', { events: sizes.nexmarkEvents, queries: [q] }), timeouts.nexmarkQueryMs, `nexmark.${q}`);
  }
  await inPage('incremental', ['incrementalVsRecompute.'], suite('incremental', sizes.incremental));
  // The SQL tab's planner runs in a worker: the 50-statement import in a Chromium worker (the keystroke figures drive the app).
  await inPage('sqlEditor', ['sqlEditor.import.'], suite('sqlEditorImport', { runs: sizes.sqlEditor.importRuns }), timeouts.suiteMs, 'sqlEditor.import');
  return out;
}

function nodeFigures(): Results {
  const out: Results = {};
  const lastLine = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Results;
  // Synchronous children: the deadline is execFileSync's own (it kills the child); the guard reports it.
  const inNode = (name: string, figures: readonly string[], file: string, args: (string | number)[], flags: string[] = [], ms = timeouts.suiteMs) => {
    const t0 = now();
    try {
      Object.assign(out, lastLine(execFileSync(process.execPath, [...flags, '--import', 'tsx', `${here}node/${file}`, ...args.map(String)], { cwd: root, encoding: 'utf8', timeout: ms, killSignal: 'SIGKILL' })));
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { signal?: string; stderr?: string };
      const reason = err.signal === 'SIGKILL' && now() - t0 >= ms - 1000 ? `timed out after ${Math.round(ms / 1000)} s` : `threw: ${(err.stderr?.trim().split('\n').pop() ?? err.message).slice(0, 300)}`;
      log(`  ${name} FAILED: ${reason}; going on with the next suite`);
      failures.push(`${name}: ${reason}`);
      Object.assign(out, failedFigures(name, figures, reason));
    }
  };
  const twins = NODE_TWINS.filter(want);
  if (twins.length) {
    log(`  ${twins.join(', ')} in Node (the same suites as in the bench page) …`);
    const ms = (twins.includes('keyedCount') ? timeouts.suiteMs : 0) + (twins.includes('nexmark') ? timeouts.nexmarkQueryMs * NEXMARK_QUERY_IDS.length : 0);
    inNode(`${twins.join(',')}.node`, figuresOf(twins.map((t) => `${t}.`)).map(nodeTwin), 'twins.ts', [twins.join(','), sizes.keyedCount.events, sizes.keyedCount.keys, sizes.nexmarkEvents, sizes.plan.runs, sizes.plan.warmups], [], ms);
  }
  if (want('memory')) {
    log('  memory (Node, --expose-gc) …');
    inNode('memory', figuresOf(['memory.']), 'memory.ts', [sizes.memoryKeys], ['--expose-gc']);
  }
  if (want('inProcess')) {
    log('  inProcess (Node: the in-process runtime, CPU per record) …');
    const { events, keys } = sizes.keyedCount;
    inNode('inProcess', figuresOf(['inProcess.']), 'inProcess.ts', [events, keys, sizes.plan.runs, sizes.plan.warmups]);
  }
  if (want('threaded')) {
    log('  threaded (Node worker_threads: CPU over all threads per record) …');
    const t = sizes.threaded;
    inNode('threaded', figuresOf(['threaded.']), 'threaded.ts', [t.events, t.keys, t.parallelism, t.checkpointIntervalMs, sizes.plan.runs, sizes.plan.warmups]);
  }
  if (want('csv')) {
    log('  csv ingest (Node) …');
    inNode('csv', figuresOf(['csv.']), 'csvIngest.ts', [sizes.csvRows]);
  }
  if (want('stepBack')) {
    log('  stepBack (Node): step-back latency at 10k records into a designer run …');
    inNode('stepBack', figuresOf(['stepBack.']), 'stepBack.ts', [10_000, quick ? 3 : 9]);
  }
  if (want('sqlImport')) {
    log('  sqlImport (Node): planning a 50-statement Flink SQL script …');
    inNode('sqlImport', figuresOf(['sqlImport.']), 'sqlImport.ts', [quick ? 10 : 30]);
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
    if (want('ui') || want('sqlEditor')) {
      log('  building the designer app for the suites that drive it in its own pages …');
      const app = await buildAndServeApp();
      try {
        // These suites open pages of their own: after a timeout, closing the browser ends them.
        if (want('ui')) Object.assign(results, await guarded('ui', ['ui.'], timeouts.suiteMs, () => uiSuite(browser, app.url, page, sizes.ui, log), async () => undefined));
        if (want('sqlEditor')) Object.assign(results, await guarded('sqlEditor', ['sqlEditor.keystroke', 'sqlEditor.firstKeystroke'], timeouts.suiteMs, () => sqlEditorSuite(browser, app.url, sizes.sqlEditor), async () => undefined));
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
  if (failures.length) log(`\n${failures.length} suite(s) failed and read "failed: …" in the report:\n  ${failures.join('\n  ')}`);
  log(`\nwrote ${relative(root, out.results)} and ${relative(root, out.report)} in ${durationSec.toFixed(0)} s${out.full ? '' : ' (not a full run: bench/results.json and bench/report.md are untouched)'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
