import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../testing/runPipeline.ts';
import { fileSource } from './fileSource.ts';

const doc = (params: Record<string, unknown>) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'file',
  nodes: [
    { id: 'visits', kind: 'fileSource', params },
    { id: 'out', kind: 'collectSink', params: {} },
  ],
  edges: [{ from: { node: 'visits', port: 'out' }, to: { node: 'out', port: 'in' } }],
});

const params = { schema: { user: 'string', amount: 'number', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } };

describe('fileSource', () => {
  it('emits the lines as records with event time', () => {
    const lines = ['{"user":"ann","amount":3,"ts":1000}', '', '{"user":"bob","amount":4.5,"ts":"1970-01-01T00:00:02Z"}'];
    const run = runPipeline(doc(params), { inputs: { visits: { name: 'v.jsonl', lines } } });
    expect(run.changelogs.out.map((e) => [e.row.user, e.ts])).toEqual([
      ['ann', 1000],
      ['bob', 2000],
    ]);
    expect(run.deadLetters).toEqual([]);
  });

  it('dead-letters bad lines with their line number, reason and text', () => {
    const lines = [
      '{"user":"ann","amount":3,"ts":1000}',
      'not json',
      '[1,2]',
      '{"user":"bob","amount":"three","ts":2000}',
      '{"user":"cy","amount":1}',
      '{"user":"dee","amount":2,"ts":3000}',
    ];
    const run = runPipeline(doc(params), { inputs: { visits: { name: 'v.jsonl', lines } } });
    expect(run.changelogs.out.map((e) => e.row.user)).toEqual(['ann', 'dee']);
    expect(run.deadLetters.map((d) => [d.nodeId, d.line, d.raw])).toEqual([
      ['visits', 2, 'not json'],
      ['visits', 3, '[1,2]'],
      ['visits', 4, lines[3]],
      ['visits', 5, lines[4]],
    ]);
    const reasons = run.deadLetters.map((d) => d.reason);
    expect(reasons[0]).toMatch(/not valid JSON/);
    expect(reasons[1]).toMatch(/must be a JSON object/);
    expect(reasons[2]).toMatch(/field "amount": expected number/);
    expect(reasons[3]).toMatch(/no event time/);
    expect(run.job.metrics().visits.deadLetters).toBe(4);
  });

  it('is empty and done without input', () => {
    const r = fileSource.open({}, { seed: 1 });
    expect(r.read(10)).toEqual([]);
    expect(r.done()).toBe(true);
    expect(runPipeline(doc(params)).changelogs.out).toEqual([]);
  });

  it('replays from an offset', () => {
    const lines = ['{"a":1}', 'oops', '{"a":2}', '{"a":3}'];
    const r = fileSource.open({}, { seed: 1, input: { name: 'x', lines } });
    const first = r.read(2);
    const at = r.offset();
    const rest = r.read(10);
    r.seek(at);
    expect(r.read(10)).toEqual(rest);
    expect(first[1]).toMatchObject({ line: 2, raw: 'oops' });
  });
});
