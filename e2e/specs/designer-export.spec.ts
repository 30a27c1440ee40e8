// Export → Flink SQL and back, from the app.
import { test } from '../harness.ts';
import { openApp } from './designer-helpers.spec.ts';

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
