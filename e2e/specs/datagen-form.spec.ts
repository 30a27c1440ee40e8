// The generator's datagen scenario: each declared column gets a small form for how it is made,
// with only the options its type and kind use, and the run makes what the form says.
import { test } from '../harness.ts';
import { openBlank } from './designer-helpers.spec.ts';

test('datagen: the columns form offers the declared columns and the options of their type, and the run follows it', async (t) => {
  const page = await openBlank(t);
  await page.getByRole('button', { name: 'Generator', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.locator('.react-flow__node').first().click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('combobox', { name: 'scenario' }).selectOption('datagen');
  const columns = inspector.getByRole('group', { name: 'columns', exact: true });
  await t.expectText(columns, /Declare the columns in schema first/);
  // Two columns in the schema: an integer and a string.
  const schema = inspector.getByRole('group', { name: 'schema', exact: true });
  for (const [name, type] of [['id', 'integer'], ['code', 'string']]) {
    await schema.getByRole('textbox', { name: 'New schema entry' }).fill(name);
    await schema.getByRole('button', { name: '+ Add' }).click();
    await schema.getByRole('combobox', { name: `schema ${name}` }).selectOption(type);
  }
  // The columns form offers exactly the declared columns.
  const pick = columns.getByRole('combobox', { name: 'New columns entry' });
  t.expect(JSON.stringify(await pick.locator('option').allTextContents()) === '["id","code"]', `the columns to choose from: ${await pick.locator('option').allTextContents()}`);
  await pick.selectOption('id');
  await columns.getByRole('button', { name: '+ Add' }).click();
  const id = columns.getByRole('group', { name: 'columns id' });
  await t.expectVisible(id.getByRole('textbox', { name: 'min' }));
  t.expect((await id.getByRole('textbox', { name: 'length' }).count()) === 0, 'an integer column has no string length');
  await id.getByRole('combobox', { name: 'kind' }).selectOption('sequence');
  await t.expectHidden(id.getByRole('textbox', { name: 'min' }));
  await id.getByRole('textbox', { name: 'start' }).fill('1');
  await id.getByRole('textbox', { name: 'end' }).fill('40');
  await columns.getByRole('button', { name: '+ Add' }).click(); // the one column left: code
  const code = columns.getByRole('group', { name: 'columns code' });
  await code.getByRole('textbox', { name: 'length' }).fill('4');
  t.expect((await code.getByRole('textbox', { name: 'min' }).count()) === 0, 'a string column has no min');
  t.expect((await columns.getByRole('combobox', { name: 'New columns entry' }).count()) === 0, 'every declared column has its options');
  await t.screenshot('datagen-columns-form');
  // The run makes 40 rows: the sequence ends there, whatever the count.
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status', { name: 'Run status' });
  await t.expectText(status, /Finished · 40 records read/, 60_000);
}, { timeoutMs: 90_000 });
