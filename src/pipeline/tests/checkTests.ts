import type { Problem } from '../kindSpec.ts';
import { TEST_MODES } from './testSpec.ts';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const problem = (field: string, message: string, code = 'bad-test'): Problem => ({ target: null, targetType: 'document', field, message, code }) as Problem;

/** Checks the `tests` of a document against its nodes: every source and sink a test names must exist. */
export function checkTests(tests: unknown, nodes: readonly { id: string; kind: string }[], isSource: (kind: string) => boolean, isSink: (kind: string) => boolean): Problem[] {
  if (tests === undefined) return [];
  if (!Array.isArray(tests)) return [problem('tests', '"tests" must be an array of tests { "name", "given", "expect" }')];
  const out: Problem[] = [];
  const byId = new Map(nodes.map((n) => [n.id, n.kind]));
  const names = new Set<string>();
  const list = (pred: (k: string) => boolean) => nodes.filter((n) => pred(n.kind)).map((n) => n.id).join(', ') || '(none)';
  tests.forEach((t, i) => {
    const at = `tests[${i}]`;
    if (!isObj(t)) return out.push(problem(at, `${at} must be an object { "name", "given", "expect" }`));
    if (typeof t.name !== 'string' || !t.name.trim()) out.push(problem(`${at}.name`, `${at} needs a "name"`));
    else if (names.has(t.name)) out.push(problem(`${at}.name`, `two tests are named "${t.name}"; give each its own name`));
    else names.add(t.name);
    if (!isObj(t.given)) out.push(problem(`${at}.given`, `${at}.given must map source ids to arrays of rows`));
    else for (const [id, rows] of Object.entries(t.given)) {
      const kind = byId.get(id);
      if (!kind || !isSource(kind)) out.push(problem(`${at}.given.${id}`, `"${id}" is not a source of this pipeline; sources: ${list(isSource)}`));
      if (!Array.isArray(rows) || rows.some((r) => !isObj(r))) out.push(problem(`${at}.given.${id}`, `the rows given for "${id}" must be an array of objects`));
    }
    if (!Array.isArray(t.expect) || t.expect.length === 0) return out.push(problem(`${at}.expect`, `${at}.expect must list at least one expectation { "sink", "mode", "rows" }`));
    t.expect.forEach((e, j) => {
      const ep = `${at}.expect[${j}]`;
      if (!isObj(e)) return out.push(problem(ep, `${ep} must be an object { "sink", "mode", "rows" }`));
      const kind = typeof e.sink === 'string' ? byId.get(e.sink) : undefined;
      if (!kind || !isSink(kind)) out.push(problem(`${ep}.sink`, `${JSON.stringify(e.sink)} is not a sink of this pipeline; sinks: ${list(isSink)}`));
      if (!TEST_MODES.includes(e.mode as never)) out.push(problem(`${ep}.mode`, `mode is ${JSON.stringify(e.mode)}; it must be one of ${TEST_MODES.join(', ')}`));
      if (!Array.isArray(e.rows) || e.rows.some((r) => !isObj(r))) out.push(problem(`${ep}.rows`, `${ep}.rows must be an array of objects`));
    });
  });
  return out;
}
