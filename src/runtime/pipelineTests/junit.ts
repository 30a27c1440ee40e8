import type { TestOutcome } from './runTests.ts';
import { formatOutcome } from './runTests.ts';

const esc = (s: string): string => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** A JUnit XML report (the format CI servers read): one testsuite per pipeline, one testcase per test. */
export function junitXml(suites: readonly { name: string; outcomes: readonly TestOutcome[] }[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = suites.reduce((n, s) => n + s.outcomes.length, 0);
  const failures = suites.reduce((n, s) => n + s.outcomes.filter((o) => !o.passed && !o.error).length, 0);
  const errors = suites.reduce((n, s) => n + s.outcomes.filter((o) => o.error).length, 0);
  lines.push(`<testsuites name="weir" tests="${total}" failures="${failures}" errors="${errors}">`);
  for (const s of suites) {
    const f = s.outcomes.filter((o) => !o.passed && !o.error).length;
    const e = s.outcomes.filter((o) => o.error).length;
    const time = s.outcomes.reduce((t, o) => t + o.ms, 0) / 1000;
    lines.push(`  <testsuite name="${esc(s.name)}" tests="${s.outcomes.length}" failures="${f}" errors="${e}" time="${time.toFixed(3)}">`);
    for (const o of s.outcomes) {
      const open = `    <testcase classname="${esc(s.name)}" name="${esc(o.name)}" time="${(o.ms / 1000).toFixed(3)}"`;
      if (o.passed) lines.push(`${open}/>`);
      else {
        const tag = o.error ? 'error' : 'failure';
        lines.push(`${open}>`, `      <${tag} message="${esc(o.error?.split('\n')[0] ?? 'a sink does not hold what the test expects')}">${esc(formatOutcome(o))}</${tag}>`, '    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
