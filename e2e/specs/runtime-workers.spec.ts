// The designer's "Run in: Web Workers": the sales example at parallelism 2 runs on the threaded job
// master over real nested Web Workers. Its committed view must equal the in-process run's, a
// subtask killed mid-run (its worker terminated) must restore to exactly the same view, the
// worker threads must be real (counted through CDP), and what needs the in-process runtime must
// say so instead of showing nothing.
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import type { Page } from 'playwright-core';
import { node, openApp, openRunSettings } from './designer-helpers.spec.ts';

const SINK = 'sales_by_store';
const status = (page: Page) => page.getByRole('status', { name: 'Run status' });

async function openParallelExample(t: TestContext): Promise<Page> {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('button', { name: /Open example sales_by_store/ }).click();
  await t.expectVisible(node(page, SINK));
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Checkpoint', exact: true }).selectOption('500');
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('2');
  return page;
}

async function runIn(page: Page, where: 'one worker' | 'Web Workers'): Promise<void> {
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Run in', exact: true }).selectOption({ label: where });
}

/** Every row of the sink's table as text; sums of doubles compared to 9 digits (batching orders the additions). */
async function sinkView(t: TestContext, page: Page): Promise<string[]> {
  await page.getByRole('tab', { name: 'Results' }).click();
  const table = page.getByRole('table', { name: `Rows of ${SINK}` });
  await t.expectVisible(table);
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  const texts = await rows.evaluateAll((els) =>
    els.map((e) => [...e.querySelectorAll('[role=cell]')].map((c) => (c.textContent && /^-?\d+\.\d+$/.test(c.textContent) ? Number(c.textContent).toPrecision(9) : c.textContent)).join(' | ')),
  );
  t.expect(texts.length > 0, 'the sink view has rows');
  // The table draws only the rows in sight: all of them must be, or the comparison means nothing.
  const total = Number(/([\d,]+) rows ·/.exec((await page.locator('#bottom-panel').textContent()) ?? '')?.[1].replace(/,/g, '') ?? NaN);
  t.expect(texts.length === total, `every row of the view is on screen (${texts.length} of ${total})`);
  return texts;
}

/** Screenshots at 1280×720; the run itself at the runner's 1280×800, where the whole view fits. */
async function shot(t: TestContext, page: Page, name: string, size = { width: 1280, height: 720 }): Promise<void> {
  await page.setViewportSize(size);
  await t.screenshot(name);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function logText(page: Page): Promise<string> {
  await page.getByRole('tab', { name: /^Log/ }).click();
  return (await page.getByRole('log', { name: 'Log' }).textContent()) ?? '';
}

async function runToEnd(t: TestContext, page: Page): Promise<string[]> {
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  if (await stop.isEnabled()) {
    await stop.click();
    await t.expectText(status(page), 'Not running');
  }
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Finished/, 60_000);
  return sinkView(t, page);
}

/** Dedicated workers of the page, nested ones included, as Chromium's DevTools protocol lists them. */
async function workerThreads(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; title: string; url: string }[] };
    return targetInfos.filter((x) => x.type === 'worker').map((x) => x.title || x.url);
  } finally {
    await cdp.detach();
  }
}

test('runtime workers: Web Workers give the in-process view, restore a killed subtask exactly, and run on real threads', async (t) => {
  const page = await openParallelExample(t);
  await runIn(page, 'one worker');
  const inProcess = await runToEnd(t, page);

  await runIn(page, 'Web Workers');
  const onWorkers = await runToEnd(t, page);
  await t.expectText(status(page), /Finished .*2 Web Workers/);
  t.expect(JSON.stringify(onWorkers) === JSON.stringify(inProcess), `the Web Workers view equals the in-process view\nworkers:    ${onWorkers.join(' / ')}\nin process: ${inProcess.join(' / ')}`);

  // Mid-run: slow enough to kill after a checkpoint, then let it finish at full speed.
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await t.expectText(status(page), 'Not running');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*2 Web Workers.*checkpoint/, 30_000);
  const threads = await workerThreads(page);
  const runtimeThreads = threads.filter((x) => x.includes('weir-worker-'));
  t.expect(runtimeThreads.length >= 2, `at least 2 runtime Web Workers run the job besides the engine worker (got ${threads.join(', ')})`);
  console.log(`    worker threads while running: ${threads.join(', ')}`);
  await shot(t, page, 'runtime-workers-running');

  // Pause holds the sources; Run goes on from there.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await t.expectText(status(page), /Paused .*2 Web Workers/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*2 Web Workers/);

  await page.getByRole('tab', { name: 'State', exact: true }).click();
  await t.expectText(page.locator('#bottom-panel'), /needs the run in one worker\. This run is on 2 Web Workers/);
  t.expect(await page.getByRole('button', { name: 'Step back' }).isDisabled(), 'step back is disabled on Web Workers');
  t.expect(await page.getByRole('button', { name: /Step/ }).filter({ hasText: 'Step' }).first().isDisabled(), 'step is disabled on Web Workers');
  await shot(t, page, 'runtime-workers-state-hint');

  await page.getByRole('button', { name: 'Kill a subtask…' }).click();
  const picker = page.getByRole('combobox', { name: 'Subtask to kill' });
  await picker.selectOption('sales#1');
  await page.getByRole('button', { name: 'Kill', exact: true }).click();
  await t.expectText(status(page), /1 restart/, 30_000);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await t.expectText(status(page), /Finished/, 60_000);
  const log = await logText(page);
  t.expect(/job failed: subtask sales#1 was killed/.test(log), `the log shows the kill:\n${log.slice(-2000)}`);
  t.expect(/job restarted from (checkpoint \d+|the beginning)/.test(log), `the log shows the restore:\n${log.slice(-2000)}`);
  const killed = await sinkView(t, page);
  t.expect(JSON.stringify(killed) === JSON.stringify(inProcess), `the view after the kill equals the uninterrupted view\nkilled:     ${killed.join(' / ')}\nin process: ${inProcess.join(' / ')}`);

  await page.getByRole('tab', { name: 'Checkpoints', exact: true }).click();
  await t.expectVisible(page.getByRole('list', { name: /timeline/i }));
  await shot(t, page, 'runtime-workers-checkpoints');
  await openRunSettings(page);
  await shot(t, page, 'runtime-workers-settings');
  for (const [width, height] of [[1024, 768], [900, 700]]) await shot(t, page, `runtime-workers-settings-${width}`, { width, height });
}, { timeoutMs: 240_000 });

test('runtime workers: with IndexedDB state, a page reloaded mid-run on Web Workers resumes from its checkpoint and ends with the in-process view', async (t) => {
  let page = await openParallelExample(t);
  await page.getByRole('combobox', { name: 'State', exact: true }).selectOption('indexeddb');
  await runIn(page, 'one worker');
  const inProcess = await runToEnd(t, page);
  await runIn(page, 'Web Workers');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await t.expectText(status(page), 'Not running');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '50 / s' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(status(page), /Running .*2 Web Workers.*[2-9] checkpoints/, 30_000);
  await page.reload();
  await t.expectVisible(page.locator('body[data-ready="true"]'));
  const prompt = page.getByRole('dialog', { name: 'Resume the interrupted run?' });
  await t.expectVisible(prompt, 20_000);
  await t.expectText(prompt, /Resume from checkpoint \d+ \([1-9][\d,]* records read, /);
  await prompt.getByRole('button', { name: 'Resume', exact: true }).click();
  await t.expectHidden(prompt);
  await t.expectText(status(page), /Running .*2 Web Workers/);
  page = t.page;
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await t.expectText(status(page), /Finished .*2 Web Workers/, 60_000);
  const log = await logText(page);
  t.expect(/resumed from checkpoint \d+/.test(log), `the log says where the run resumed:\n${log.slice(-2000)}`);
  const resumed = await sinkView(t, page);
  t.expect(JSON.stringify(resumed) === JSON.stringify(inProcess), `the resumed view equals the in-process view\nresumed:    ${resumed.join(' / ')}\nin process: ${inProcess.join(' / ')}\n${await logText(page)}`);
}, { timeoutMs: 240_000 });
