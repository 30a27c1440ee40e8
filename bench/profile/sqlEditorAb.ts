// Before/after of a change to the SQL tab by the sqlEditor suite's keystroke-to-underline figure,
// both apps built and served side by side and measured in alternating rounds in one browser.
// `node --import tsx bench/profile/sqlEditorAb.ts <before-root> [rounds] [keystrokes]`.
import { chromium } from 'playwright-core';
import { buildAndServeApp } from '../lib/appServer.ts';
import { LAUNCH_ARGS } from '../lib/launchArgs.ts';
import { sqlEditorSuite } from '../suites/sqlEditor.ts';
import { median } from '../lib/stats.ts';

const [beforeRoot, roundsArg = '5', keysArg = '9'] = process.argv.slice(2);
if (!beforeRoot) throw new Error('usage: sqlEditorAb.ts <before-root> [rounds] [keystrokes]');
const apps = { before: await buildAndServeApp({ root: beforeRoot }), after: await buildAndServeApp() };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: LAUNCH_ARGS });
const got: Record<'before' | 'after', number[]> = { before: [], after: [] };
try {
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const side of r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const f = await sqlEditorSuite(browser, apps[side].url, { keystrokes: Number(keysArg) });
      got[side].push(f['sqlEditor.keystrokeToDiagnosticsMs']);
      console.log(`round ${r + 1} ${side}: median ${f['sqlEditor.keystrokeToDiagnosticsMs'].toFixed(1)} ms, max ${f['sqlEditor.keystrokeToDiagnosticsMaxMs'].toFixed(0)} ms, first ${f['sqlEditor.firstKeystrokeToDiagnosticsMs'].toFixed(0)} ms`);
    }
  }
  console.log(`keystroke to underline, median of round medians: before ${median(got.before).toFixed(1)} ms, after ${median(got.after).toFixed(1)} ms; paired after/before ×${median(got.after.map((a, i) => a / got.before[i])).toFixed(2)}`);
} finally {
  await browser.close();
  await apps.before.close();
  await apps.after.close();
}
