// Export → Flink SQL and back, from the app.
import { readFileSync } from 'node:fs';
import { test } from '../harness.ts';
import { openApp, openExample } from './designer-helpers.spec.ts';

test('designer export: the Flink SQL dialog shows the script for the open example and imports it back', async (t) => {
  const page = await openApp(t);
  await page.getByRole('button', { name: 'Flink SQL', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Flink SQL' });
  await t.expectVisible(dialog);
  await t.expectText(dialog.locator('.sql-view'), /Flink\sSQL\sfor\sthe\sWeir\spipeline/, 30_000);
  await t.expectVisible(dialog.getByRole('button', { name: 'Download .sql' }));
  await t.screenshot('designer-flink-sql-export');
  await dialog.getByRole('tab', { name: 'Import' }).click();
  await dialog.getByLabel('Flink SQL script to import').fill('SELECT FROM nowhere;');
  await dialog.getByRole('button', { name: 'Import as a new project' }).click();
  await t.expectText(dialog.getByRole('alert'), /line 1, column/);
}, { timeoutMs: 90_000 });

test('designer export: a connector template per source; datagen warns that a filter on a literal will match nothing', async (t) => {
  const page = await openExample(t, /Bronze → silver → gold/, 'valid');
  await page.getByRole('button', { name: 'Flink SQL', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Flink SQL' });
  await t.expectText(dialog.locator('.sql-view'), /Flink\sSQL\sfor\sthe\sWeir\spipeline/, 30_000);
  const warnings = dialog.getByRole('list', { name: 'Export warnings' });
  const picker = dialog.getByRole('combobox', { name: 'Connector for raw_orders' });
  // The script as the person takes it away: the Download button's file.
  const downloaded = async () => {
    const file = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download .sql' }).click();
    return readFileSync((await (await file).path())!, 'utf8');
  };
  await picker.selectOption('kafka');
  const kafka = await downloaded();
  t.expect(/CREATE TABLE `raw_orders` \([^;]*'connector' = 'kafka'[^;]*'topic' = '<your-topic-for-raw_orders>'/.test(kafka), 'raw_orders reads a Kafka topic, its placeholder marked');
  await picker.selectOption('datagen');
  await t.expectText(warnings, /datagen's random `amount` will likely match nothing in `valid`'s `amount > 0`: bound it with 'fields.amount.min'/, 30_000);
  const datagen = await downloaded();
  t.expect(/'connector' = 'datagen'/.test(datagen) && /-- WARNING: datagen's random `amount`/.test(datagen), 'the script says so too, above the datagen table');
  await t.screenshot('designer-flink-sql-datagen-warning');
}, { timeoutMs: 90_000 });
