import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

const examples = join(import.meta.dirname, '../../public/examples');
const files = readdirSync(examples).filter((f) => f.endsWith('.json') && f !== 'index.json');

async function weir(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => void out.push(t), err: (t) => void err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('weir test', () => {
  it.each(files)('%s ships at least one test and passes it', async (f) => {
    const doc = JSON.parse(readFileSync(join(examples, f), 'utf8'));
    expect(doc.tests?.length).toBeGreaterThan(0);
    const r = await weir('test', join(examples, f));
    expect(r.out).toContain('PASS');
    expect(r.code, r.out).toBe(0);
  });

  it('a broken pipeline fails with a readable diff and a JUnit report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-test-'));
    const doc = JSON.parse(readFileSync(join(examples, 'medallion.json'), 'utf8'));
    const agg = doc.nodes.find((n: { kind: string }) => n.kind === 'aggregate' || n.kind === 'filter');
    expect(agg).toBeDefined();
    // Break it: a filter that drops everything, or an aggregate grouped differently.
    if (agg.kind === 'filter') agg.params = { where: '1 = 0' };
    else agg.params.aggregates = agg.params.aggregates.map((a: { fn: string }) => (a.fn === 'count' ? a : { ...a, fn: 'max' }));
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(doc));
    const junit = join(dir, 'out.xml');
    const r = await weir('test', file, '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL /);
    expect(r.out).toMatch(/^\s+- \{/m);
    expect(r.out).toMatch(/0 passed, 1 failed/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="weir" tests="1" failures="1" errors="0">/);
    expect(xml).toContain('<failure message="a sink does not hold what the test expects">');
  });

  it('contains and excludes; a test naming an unknown sink makes the pipeline invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-test-'));
    const doc = {
      format: 'weir/pipeline', version: 1, name: 't',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [] } },
        { id: 'by_user', kind: 'aggregate', params: { groupBy: ['user'], aggregates: [{ fn: 'count', as: 'n' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'by_user', port: 'in' } }, { from: { node: 'by_user', port: 'out' }, to: { node: 'view', port: 'in' } }],
      tests: [
        { name: 'ann twice', given: { src: [{ user: 'ann' }, { user: 'ann' }, { user: 'bob' }] }, expect: [{ sink: 'view', mode: 'contains', rows: [{ n: 2, user: 'ann' }] }, { sink: 'view', mode: 'excludes', rows: [{ user: 'ann', n: 1 }] }] },
        { name: 'wrong', given: { src: [{ user: 'ann' }] }, expect: [{ sink: 'view', mode: 'excludes', rows: [{ user: 'ann', n: 1 }] }] },
      ],
    };
    const file = join(dir, 'p.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = await weir('test', file);
    expect(r.code).toBe(1);
    expect(r.out).toContain('PASS ann twice');
    expect(r.out).toContain('FAIL wrong');
    expect(r.out).toContain('sink view (excludes): 0 missing, 1 forbidden row(s) present');
    expect(r.out).toContain('+ {"n":1,"user":"ann"}');

    writeFileSync(file, JSON.stringify({ ...doc, tests: [{ name: 'x', given: { nope: [] }, expect: [{ sink: 'src', mode: 'equals', rows: [] }] }] }));
    const bad = await weir('test', file);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('tests[0].given.nope: "nope" is not a source of this pipeline; sources: src');
    expect(bad.out).toContain('tests[0].expect[0].sink: "src" is not a sink of this pipeline; sinks: view');
  });
});
