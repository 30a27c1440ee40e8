// The app boots: the built page loads from the preview server alone, React mounts into #root,
// and nothing logs an error on the way.
import { test } from '../harness.ts';

test('smoke: the designer loads', async (t) => {
  const { page } = t;
  await page.goto(t.baseUrl + '/');
  await t.waitFor('#root to get a child element', () => page.locator('#root > *').count());
  const title = await page.title();
  t.expect(title.includes('Weir'), `document title should contain "Weir", got ${JSON.stringify(title)}`);
  await t.screenshot('smoke-home');
});
