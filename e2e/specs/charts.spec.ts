// A view as a live chart, and operators' load over time, in the running designer.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { node, openApp } from './designer-helpers.spec.ts';

/** Pixels of the canvas that are not background: something was plotted. */
const inkedPixels = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });

/** The Top-N example with a generator that does not run out while the test looks. */
function longTopCities(): unknown {
  const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../../public/examples/top-cities.json', import.meta.url)), 'utf8'));
  for (const n of doc.nodes) if (n.kind === 'generatorSource') n.params = { ...n.params, count: 1_000_000_000 };
  return doc;
}

async function runTopCities(t: TestContext): Promise<Page> {
  const page = await openApp(t);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open file' }).click();
  await (await chooser).setFiles({ name: 'top-cities.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(longTopCities())) });
  await t.expectVisible(node(page, 'per_minute'));
  // Give the output panel room, as a person would, by its separator.
  const separator = page.getByRole('separator', { name: 'Resize the output panel' });
  await separator.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowUp');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Running · [1-9]/);
  return page;
}

test('charts: a view switches to a live line chart and to bars, and remembers it', async (t) => {
  const page = await runTopCities(t);
  await page.getByRole('tab', { name: 'Results' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('tab', { name: 'top_cities' }).click();
  await panel.getByRole('button', { name: 'Chart', exact: true }).click();
  // The defaults: window_start on x, revenue (the first numeric non-key column) on y, city as the series.
  const chart = panel.getByRole('img', { name: 'Line chart of revenue in top_cities' });
  await t.expectVisible(chart);
  t.expect((await panel.getByRole('combobox', { name: 'x' }).inputValue()) === 'window_start', 'x defaults to window_start');
  t.expect((await panel.getByRole('combobox', { name: 'Series' }).inputValue()) === 'city', 'the series default to city');
  const legend = panel.getByRole('list', { name: 'Series' }).getByRole('listitem');
  const series = await t.waitFor('at least three city series', async () => ((await legend.count()) >= 3 ? legend.count() : 0), 60_000);
  t.expect(series <= 11, `at most ten keys and "other" are drawn (${series})`);
  await t.waitFor('lines drawn on the canvas', async () => (await inkedPixels(page, '.chart-main canvas')) > 500);
  await t.screenshot('charts-line-running');
  // The drawn data as a table, for screen readers and exact values.
  await panel.getByRole('button', { name: 'Chart data as a table' }).click();
  const rows = panel.getByRole('table', { name: 'Chart data of top_cities' }).getByRole('row');
  await t.waitFor('rows in the chart table', async () => (await rows.count()) > 1);
  await t.screenshot('charts-data-table');
  await panel.getByRole('button', { name: 'Chart data as a table' }).click();

  await panel.getByRole('button', { name: 'Bars', exact: true }).click();
  await t.expectVisible(panel.getByRole('img', { name: 'Bars chart of revenue in top_cities' }));
  await t.waitFor('bars drawn', async () => (await inkedPixels(page, '.chart-main canvas')) > 500);
  await t.screenshot('charts-bars-running');

  // Remembered per sink: back on the table and again on the chart, bars are still chosen.
  await panel.getByRole('button', { name: 'Table', exact: true }).click();
  await t.expectVisible(page.getByRole('table', { name: 'Rows of top_cities' }));
  await panel.getByRole('button', { name: 'Chart', exact: true }).click();
  await t.expectVisible(panel.getByRole('img', { name: 'Bars chart of revenue in top_cities' }));
}, { timeoutMs: 120_000 });

test('charts: the Metrics tab and the inspector show busy, backpressured and rates over time, with the same numbers', async (t) => {
  const page = await runTopCities(t);
  await page.getByRole('tab', { name: 'Metrics', exact: true }).click();
  const table = page.getByRole('table', { name: 'Load per operator' });
  await t.expectVisible(table);
  const windowRow = table.getByRole('row', { name: /Revenue per city per minute/ });
  await t.expectVisible(windowRow);
  // Sparklines fill up while the job runs; the window operator receives records.
  await t.waitFor('the window operator receiving records', async () => {
    const cells = await windowRow.getByRole('cell').allInnerTexts();
    return cells.length >= 4 && Number(cells[2].replace(/[^\d.]/g, '')) > 0;
  }, 30_000);
  await t.expectVisible(windowRow.getByRole('img', { name: /Busy and backpressured over time for per_minute/ }));
  await t.waitFor('a drawn sparkline', async () => (await inkedPixels(page, '.metrics-table .spark canvas')) > 20);
  await t.screenshot('charts-metrics-tab');

  await page.getByRole('button', { name: 'Pause' }).click();
  await t.expectText(page.getByRole('status', { name: 'Run status' }), /Paused/);
  await node(page, 'per_minute').locator('.op-label').click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  const section = inspector.locator('.node-load');
  await t.expectVisible(section);
  // Paused: neither side moves, so the inspector's figures must read exactly as the tab's.
  const tabCells = await windowRow.getByRole('cell').allInnerTexts();
  const numbers = (await section.locator('.load-numbers').first().innerText()).replace(/\s+/g, ' ');
  t.expect(numbers.includes(`busy ${tabCells[0]}`), `inspector "${numbers}" shows the tab's busy ${tabCells[0]}`);
  t.expect(numbers.includes(`backpressured ${tabCells[1]}`), `inspector "${numbers}" shows the tab's backpressured ${tabCells[1]}`);
  t.expect(numbers.includes(`in ${tabCells[2]}/s`), `inspector "${numbers}" shows the tab's in ${tabCells[2]}/s`);
  await t.expectVisible(section.getByRole('img', { name: /Records per second over time for per_minute/ }));
  await t.screenshot('charts-inspector-metrics');

  // The same in Traditional Chinese: the tab, the figures and the chart's settings.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
  await t.expectVisible(page.getByRole('table', { name: '各運算子的負載' }));
  await t.expectText(page.locator('.node-load .load-numbers').first(), /忙碌 \d+ %/);
  await t.screenshot('charts-metrics-zh-TW');
  await page.getByRole('tab', { name: '結果', exact: true }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: '圖表', exact: true }).click();
  await t.expectVisible(page.getByRole('tabpanel').getByRole('group', { name: '圖表設定' }));
  await t.screenshot('charts-chart-zh-TW');
}, { timeoutMs: 120_000 });
