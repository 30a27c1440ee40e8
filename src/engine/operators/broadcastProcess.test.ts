import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { compile } from '../../pipeline/compile.ts';

const ruleSchema = { inputs: { rules: { fields: { sensor: 'string' as const, threshold: 'number' as const, unit: 'string' as const } } } };
const enrich = { ruleKey: 'sensor', lookup: 'sensor' };
const rule = (sensor: string, threshold: number, unit = 'C') => ({ sensor, threshold, unit });
const reading = (sensor: string, value: number) => ({ sensor, value });

describe('broadcastProcess: enrichment', () => {
  it('adds the matching rule\'s fields as rule_<field>, NULL-filled when no rule matches', () => {
    const h = new OperatorHarness('broadcastProcess', enrich, ruleSchema);
    h.processElement(rule('s1', 30), { port: 'rules' });
    h.processElement(reading('s1', 31)).processElement(reading('s2', 5));
    expect(h.lines()).toEqual([
      '+I {"sensor":"s1","value":31,"rule_threshold":30,"rule_unit":"C"}',
      '+I {"sensor":"s2","value":5,"rule_threshold":null,"rule_unit":null}',
    ]);
    expect(h.task.counters.unmatched).toBe(1);
  });

  it('does not buffer: a record that arrives before its rule sees no rule', () => {
    const h = new OperatorHarness('broadcastProcess', enrich, ruleSchema);
    h.processElement(reading('s1', 31));
    h.processElement(rule('s1', 30), { port: 'rules' });
    h.processElement(reading('s1', 32));
    expect(h.output().map((e) => e.row.rule_threshold)).toEqual([null, 30]);
  });

  it('replaces a rule on +I/+U with the same key and removes it on -U/-D', () => {
    const h = new OperatorHarness('broadcastProcess', enrich, ruleSchema);
    h.processElement(rule('s1', 30), { port: 'rules' }).processElement(reading('s1', 1));
    h.processElement(rule('s1', 40), { port: 'rules' }).processElement(reading('s1', 2));
    h.processElement(rule('s1', 40), { port: 'rules', kind: '-U' }).processElement(rule('s1', 50), { port: 'rules', kind: '+U' }).processElement(reading('s1', 3));
    h.processElement(rule('s1', 50), { port: 'rules', kind: '-D' }).processElement(reading('s1', 4));
    expect(h.output().map((e) => e.row.rule_threshold)).toEqual([30, 40, 50, null]);
    expect(h.task.operatorState.broadcast('rules').size).toBe(0);
  });

  it('passes the main row kind and event time through, and dead-letters rules without a key', () => {
    const h = new OperatorHarness('broadcastProcess', enrich, ruleSchema);
    h.processElement({ threshold: 1 }, { port: 'rules' });
    h.processElement(reading('s1', 1), { kind: '-D', ts: 77 });
    expect(h.output()).toEqual([{ kind: '-D', row: { sensor: 's1', value: 1, rule_threshold: null, rule_unit: null }, ts: 77 }]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['rule has no usable "sensor" value (text, number or boolean)']);
  });

  it('without a rules schema adds whatever fields the matching rule has', () => {
    const h = new OperatorHarness('broadcastProcess', enrich);
    h.processElement({ sensor: 's1', level: 'high' }, { port: 'rules' });
    h.processElement(reading('s1', 1)).processElement(reading('s9', 1));
    expect(h.lines()).toEqual(['+I {"sensor":"s1","value":1,"rule_level":"high"}', '+I {"sensor":"s9","value":1}']);
  });
});

describe('broadcastProcess: code', () => {
  const code = `(row, rules, ctx) => {
    const r = rules.get(row.sensor);
    if (!r) return rules.size === 0 ? undefined : null;
    if (row.value <= r.threshold) return [];
    return [{ ...row, over: row.value - r.threshold, known: rules.keys().join('+'), n: rules.values().length + rules.entries().length, has: rules.has('s2'), at: ctx.timestamp, key: ctx.key }];
  }`;

  it('emits what the function returns for the rules present at that moment', () => {
    const h = new OperatorHarness('broadcastProcess', { ruleKey: 'sensor', code });
    h.processElement(reading('s1', 50), { ts: 1 });
    h.processElement(rule('s1', 30), { port: 'rules' }).processElement(rule('s2', 10), { port: 'rules' });
    h.processElement(reading('s1', 20), { ts: 2 }).processElement(reading('s1', 35), { ts: 3 }).processElement(reading('s3', 99), { ts: 4 });
    expect(h.lines()).toEqual(['+I {"sensor":"s1","value":35,"over":5,"known":"s1+s2","n":4,"has":true,"at":3,"key":null}']);
  });

  it('gives the main stream\'s key when it is keyed, and accepts a single row or an array', () => {
    const h = new OperatorHarness('broadcastProcess', { ruleKey: 'sensor', code: '(row, rules, ctx) => row.many ? [row, row] : { ...row, key: ctx.key }' }, { inputs: { in: { keyedBy: ['sensor'] } } });
    h.processElement(reading('s7', 1)).processElement({ sensor: 's8', many: true });
    expect(h.lines()).toEqual(['+I {"sensor":"s7","value":1,"key":"s7"}', '+I {"sensor":"s8","many":true}', '+I {"sensor":"s8","many":true}']);
  });

  it('dead-letters results that are not rows, and a function that tries to edit a rule', () => {
    const h = new OperatorHarness('broadcastProcess', { ruleKey: 'sensor', code: '(row, rules) => { if (row.edit) { rules.get("s1").threshold = 0; } return row.value; }' });
    h.processElement(rule('s1', 30), { port: 'rules' });
    h.processElement(reading('s1', 5)).processElement({ edit: true });
    expect(h.output()).toEqual([]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['broadcast code returned number, not a row object', expect.stringMatching(/^processing failed: .*read.only|^processing failed: .*threshold/)]);
    expect(h.task.operatorState.broadcast<{ threshold: number }>('rules').get('s1')?.threshold).toBe(30);
  });
});

describe('broadcastProcess: checkpoints, validation and pipelines', () => {
  it('keeps the rules in the operator snapshot and restores them into a fresh operator', () => {
    const a = new OperatorHarness('broadcastProcess', enrich, ruleSchema);
    a.processElement(rule('s1', 30), { port: 'rules' }).processElement(rule('s2', 10), { port: 'rules' });
    const snap = a.snapshot();
    expect(snap.operator.broadcast.rules.map(([k]) => k)).toEqual(['s1', 's2']);
    const b = a.restored(snap);
    b.processElement(rule('s2', 10), { port: 'rules', kind: '-D' });
    b.processElement(reading('s1', 1)).processElement(reading('s2', 1));
    expect(b.output().map((e) => e.row.rule_threshold)).toEqual([30, null]);
    expect(a.restored(a.snapshot()).task.operator.inspect?.()).toMatchObject({ ruleCount: 2 });
  });

  it('requires exactly one of lookup and code, and a rule key the rules stream has', () => {
    const doc = (params: Record<string, unknown>) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 'rules',
      nodes: [
        { id: 'main', kind: 'inlineSource', params: { rows: [reading('s1', 1)] } },
        { id: 'rules', kind: 'inlineSource', params: { rows: [rule('s1', 1)] } },
        { id: 'bp', kind: 'broadcastProcess', params },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'main', port: 'out' }, to: { node: 'bp', port: 'in' } },
        { from: { node: 'rules', port: 'out' }, to: { node: 'bp', port: 'rules' } },
        { from: { node: 'bp', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    const codes = (params: Record<string, unknown>) => compile(doc(params)).problems.map((p) => `${p.field} ${p.code}`);
    expect(codes({ ruleKey: 'sensor', lookup: 'sensor', code: '(r) => r' })).toEqual(['params bad-param-choice']);
    expect(codes({ ruleKey: 'sensor' })).toEqual(['params bad-param-choice']);
    expect(codes({ ruleKey: 'nope', lookup: 'missing' })).toEqual(['params.ruleKey unknown-field', 'params.lookup unknown-field']);
    expect(compile(doc(enrich)).plan?.edges.find((e) => e.to.port === 'rules')?.partitioning).toBe('broadcast');
  });

  it('enriches readings with thresholds from a rules stream', () => {
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'thresholds',
      nodes: [
        { id: 'rules', kind: 'inlineSource', params: { rows: [rule('s1', 30), rule('s2', 10, 'F')] } },
        // Sources are paced in simulated processing time; the slower readings arrive after both rules.
        { id: 'readings', kind: 'inlineSource', params: { rows: [reading('s1', 31), reading('s2', 5), reading('s3', 7)], ratePerSec: 10 } },
        { id: 'bp', kind: 'broadcastProcess', params: enrich },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'readings', port: 'out' }, to: { node: 'bp', port: 'in' } },
        { from: { node: 'rules', port: 'out' }, to: { node: 'bp', port: 'rules' } },
        { from: { node: 'bp', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    expect(run.changelogs.out.map((e) => e.row)).toEqual([
      { sensor: 's1', value: 31, rule_threshold: 30, rule_unit: 'C' },
      { sensor: 's2', value: 5, rule_threshold: 10, rule_unit: 'F' },
      { sensor: 's3', value: 7, rule_threshold: null, rule_unit: null },
    ]);
  });
});
