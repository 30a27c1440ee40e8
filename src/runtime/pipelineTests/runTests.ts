import { compile } from '../../pipeline/compile.ts';
import type { PipelineDocument, PipelineNode } from '../../pipeline/document.ts';
import type { PipelineTest, TestExpectation } from '../../pipeline/tests/testSpec.ts';
import { runInProcess } from '../runInProcess.ts';
import { sourceDefinition } from '../../engine/registry.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import type { Row } from '../../core/types.ts';

export interface ExpectationResult {
  sink: string;
  mode: TestExpectation['mode'];
  passed: boolean;
  /** Expected rows the table lacks (equals, contains). */
  missing: Row[];
  /** Rows the table holds but must not (equals: not expected; excludes: forbidden). */
  unexpected: Row[];
  /** The sink's whole final table, for showing next to the diff. */
  actual: Row[];
}

export interface TestOutcome {
  name: string;
  passed: boolean;
  expectations: ExpectationResult[];
  /** Set when the test could not run at all (invalid pipeline, a failing operator). */
  error?: string;
  deadLetters: number;
  ms: number;
}

/**
 * The document a test runs: each given source becomes inline rows with the source's own
 * schema, event time and changelog format, so the rows are read exactly as the source reads.
 */
export function testDocument(doc: PipelineDocument, test: PipelineTest): PipelineDocument {
  // The source's output fields as the pipeline knows them (a generator's come from its scenario).
  const streams = compile(doc).streams;
  const nodes = doc.nodes.map((n): PipelineNode => {
    const rows = test.given[n.id];
    if (!rows) return n;
    let eff: CommonSourceParams;
    try {
      eff = sourceDefinition(n.kind).taskParams?.(n.params as never) ?? (n.params as CommonSourceParams);
    } catch {
      eff = n.params as CommonSourceParams;
    }
    const { eventTime, changelog } = eff;
    const schema = eff.schema ?? streams[n.id]?.outputs.out?.fields ?? undefined;
    return { ...n, kind: 'inlineSource', params: { rows, ...(schema ? { schema } : {}), ...(eventTime ? { eventTime } : {}), ...(changelog ? { changelog } : {}) } };
  });
  const { tests: _omit, ...rest } = doc;
  return { ...rest, nodes };
}

/** A row as text with sorted keys and float noise rounded away, so equal rows compare equal. */
export function rowKey(row: Row): string {
  const norm = (v: unknown): unknown => {
    if (typeof v === 'number' && !Number.isInteger(v)) return Number(v.toPrecision(12));
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm((v as Row)[k])]));
    return v;
  };
  return JSON.stringify(norm(row));
}

function bag(rows: readonly Row[]): Map<string, { row: Row; n: number }> {
  const m = new Map<string, { row: Row; n: number }>();
  for (const r of rows) {
    const k = rowKey(r);
    const e = m.get(k);
    if (e) e.n++;
    else m.set(k, { row: r, n: 1 });
  }
  return m;
}

/** Compares a final table with an expectation, as multisets of rows. */
export function checkExpectation(e: TestExpectation, actual: readonly Row[]): ExpectationResult {
  const have = bag(actual);
  const missing: Row[] = [];
  const unexpected: Row[] = [];
  if (e.mode === 'excludes') {
    for (const r of e.rows) if (have.has(rowKey(r))) unexpected.push(r);
  } else {
    const want = bag(e.rows);
    for (const [k, w] of want) {
      const h = have.get(k)?.n ?? 0;
      for (let i = h; i < w.n; i++) missing.push(w.row);
    }
    if (e.mode === 'equals') {
      for (const [k, h] of have) {
        const w = want.get(k)?.n ?? 0;
        for (let i = w; i < h.n; i++) unexpected.push(h.row);
      }
    }
  }
  return { sink: e.sink, mode: e.mode, passed: missing.length === 0 && unexpected.length === 0, missing, unexpected, actual: [...actual] };
}

/** Runs one test to the end of its input, in process and deterministically. */
export function runPipelineTest(doc: PipelineDocument, test: PipelineTest, now: () => number = () => 0): TestOutcome {
  const t0 = now();
  const { plan, problems } = compile(testDocument(doc, test));
  if (!plan) {
    const first = problems.slice(0, 5).map((p) => `${p.target ?? '(document)'} ${p.field}: ${p.message}`);
    return { name: test.name, passed: false, expectations: [], error: `the pipeline is not valid:\n${first.join('\n')}`, deadLetters: 0, ms: now() - t0 };
  }
  try {
    const run = runInProcess(plan, { keepChangelog: false }).result;
    const expectations = test.expect.map((e) => checkExpectation(e, run.views[e.sink] ?? []));
    return { name: test.name, passed: expectations.every((r) => r.passed), expectations, deadLetters: run.deadLetters.length, ms: now() - t0 };
  } catch (e) {
    return { name: test.name, passed: false, expectations: [], error: `the run failed: ${(e as Error).message}`, deadLetters: 0, ms: now() - t0 };
  }
}

export function runPipelineTests(doc: PipelineDocument, now?: () => number): TestOutcome[] {
  return (doc.tests ?? []).map((t) => runPipelineTest(doc, t, now));
}

/** A readable diff: `- row` expected but missing, `+ row` present but not wanted. */
export function formatOutcome(o: TestOutcome): string {
  const lines = [`${o.passed ? 'PASS' : 'FAIL'} ${o.name}`];
  if (o.error) lines.push(...o.error.split('\n').map((l) => `    ${l}`));
  for (const e of o.expectations) {
    if (e.passed) continue;
    lines.push(`  sink ${e.sink} (${e.mode}): ${e.missing.length} missing, ${e.unexpected.length} ${e.mode === 'excludes' ? 'forbidden row(s) present' : 'unexpected'}; the table has ${e.actual.length} row(s)`);
    for (const r of e.missing.slice(0, 20)) lines.push(`    - ${rowKey(r)}`);
    for (const r of e.unexpected.slice(0, 20)) lines.push(`    + ${rowKey(r)}`);
    const more = Math.max(0, e.missing.length - 20) + Math.max(0, e.unexpected.length - 20);
    if (more) lines.push(`    … and ${more} more`);
  }
  return lines.join('\n');
}
