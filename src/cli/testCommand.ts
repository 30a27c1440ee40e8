import { writeFileSync } from 'node:fs';
import type { Io } from './io.ts';
import { InvalidError, UsageError } from './io.ts';
import { loadPipeline } from './load.ts';
import { formatOutcome, runPipelineTests } from '../runtime/pipelineTests/runTests.ts';
import { junitXml } from '../runtime/pipelineTests/junit.ts';

export const TEST_USAGE = `Usage: weir test <pipeline.json>... [--junit <out.xml>] [--only <test name>]

Runs the tests saved in each pipeline ("tests": given rows on sources, what sinks must hold)
in process, deterministically, and prints PASS or FAIL per test with a diff of each failing sink:
  - {row}   expected but missing from the table
  + {row}   in the table but not expected (or forbidden)
--junit writes a JUnit XML report for CI.

Exit codes: 0 every test passed, 1 a test failed or a pipeline is invalid or has no tests.`;

interface TestArgs {
  files: string[];
  junit?: string;
  only?: string;
}

function parseTestArgs(args: readonly string[]): TestArgs {
  const out: TestArgs = { files: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--junit' || a === '--only') {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`, 'test');
      if (a === '--junit') out.junit = v;
      else out.only = v;
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`, 'test');
    else out.files.push(a);
  }
  if (!out.files.length) throw new UsageError('give at least one pipeline file', 'test');
  return out;
}

/** `weir test`: 0 when every test of every file passed. */
export function testCommand(argv: readonly string[], io: Io): number {
  const args = parseTestArgs(argv);
  let failed = false;
  const suites: { name: string; outcomes: ReturnType<typeof runPipelineTests> }[] = [];
  for (const file of args.files) {
    let doc;
    try {
      doc = loadPipeline(file, undefined, { notice: (l) => io.err(l) }).doc;
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      io.out(e.lines.join('\n'));
      failed = true;
      continue;
    }
    const tests = (doc.tests ?? []).filter((t) => args.only === undefined || t.name === args.only);
    if (!tests.length) {
      io.out(`${file}: no tests${args.only !== undefined ? ` named "${args.only}"` : ''}; record one in the designer's Tests panel or add "tests" to the document`);
      failed = true;
      continue;
    }
    const outcomes = runPipelineTests({ ...doc, tests }, () => performance.now());
    io.out(`${file}:`);
    for (const o of outcomes) io.out(formatOutcome(o).replace(/^/gm, '  '));
    const bad = outcomes.filter((o) => !o.passed).length;
    io.out(`  ${outcomes.length - bad} passed, ${bad} failed`);
    if (bad) failed = true;
    suites.push({ name: `${doc.name} (${file})`, outcomes });
  }
  if (args.junit) writeFileSync(args.junit, junitXml(suites));
  return failed ? 1 : 0;
}
