// What a resume compares for process and broadcast operators: their state descriptors (as Flink
// does), not their whole configuration. Code loads through the in-process code host here.
import { describe, expect, it } from 'vitest';
import { planOrThrow } from '../testing/runPipeline.ts';
import { compareStateDescriptors, stateDescriptors } from '../pipeline/stateDescriptors.ts';
import { declaredCodeStates } from './resume.ts';

const counting = `({
  state: { count: { kind: 'value' }, seen: { kind: 'list', ttlMs: 60000 } },
  processElement(row, ctx) {
    ctx.state.count.update((ctx.state.count.value() ?? 0) + 1);
    ctx.emit({ ...row, n: ctx.state.count.value() });
  },
})`;

function processDoc(code: string, opts: { label?: string; keyBy?: string } = {}) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'p',
    nodes: [
      { id: 'visits', kind: 'inlineSource', params: { rows: [{ customer: 'a', page: 'x', amount: 1 }], schema: { customer: 'string', page: 'string', amount: 'number' } } },
      { id: 'byCustomer', kind: 'keyBy', params: { key: [opts.keyBy ?? 'customer'] } },
      { id: 'count', kind: 'process', ...(opts.label ? { label: opts.label } : {}), params: { code } },
      { id: 'out', kind: 'collectSink', params: {} },
    ],
    edges: [
      { from: { node: 'visits', port: 'out' }, to: { node: 'byCustomer', port: 'in' } },
      { from: { node: 'byCustomer', port: 'out' }, to: { node: 'count', port: 'in' } },
      { from: { node: 'count', port: 'out' }, to: { node: 'out', port: 'in' } },
    ],
  };
}

function broadcastDoc(params: Record<string, unknown>) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'b',
    nodes: [
      { id: 'main', kind: 'inlineSource', params: { rows: [{ sensor: 's1', value: 1 }], schema: { sensor: 'string', value: 'number' } } },
      { id: 'rules', kind: 'inlineSource', params: { rows: [{ sensor: 's1', threshold: 1, unit: 'C' }], schema: { sensor: 'string', threshold: 'number', unit: 'string' } } },
      { id: 'bp', kind: 'broadcastProcess', params },
      { id: 'out', kind: 'collectSink', params: {} },
    ],
    edges: [
      { from: { node: 'main', port: 'out' }, to: { node: 'bp', port: 'in' } },
      { from: { node: 'rules', port: 'out' }, to: { node: 'bp', port: 'rules' } },
      { from: { node: 'bp', port: 'out' }, to: { node: 'out', port: 'in' } },
    ],
  };
}

/** The mismatches a resume of a checkpoint of `before` into `after` would report. */
function resumeInto(before: object, after: object): string[] {
  const described = (doc: object) => {
    const plan = planOrThrow(doc);
    return stateDescriptors(plan, declaredCodeStates(plan));
  };
  return compareStateDescriptors(described(before), described(after)).map((m) => m.message);
}

describe('resuming a process function', () => {
  it('accepts changed code and a new label while the declared state stays the same', () => {
    const emitsMore = counting.replace('ctx.emit({ ...row, n: ctx.state.count.value() });', 'ctx.emit({ ...row, n: ctx.state.count.value(), twice: 2 * ctx.state.count.value() });');
    expect(emitsMore).not.toBe(counting);
    expect(resumeInto(processDoc(counting), processDoc(emitsMore, { label: 'Visits so far' }))).toEqual([]);
  });

  it('refuses a state whose kind or TTL changed, a renamed state and a new key, naming the operator and the state', () => {
    expect(resumeInto(processDoc(counting), processDoc(counting.replace("count: { kind: 'value' }", "count: { kind: 'list' }")))).toEqual([
      expect.stringMatching(/^operator "count" \(process\) changed incompatibly since the checkpoint: state "count" was value .*, now list /),
    ]);
    expect(resumeInto(processDoc(counting), processDoc(counting.replace('ttlMs: 60000', 'ttlMs: 1000'))).join('\n')).toContain('operator "count" (process) changed incompatibly since the checkpoint: state "seen" was list');
    const renamed = resumeInto(processDoc(counting), processDoc(counting.replaceAll('count', 'visits')));
    expect(renamed.join('\n')).toContain('state "count" (value) is gone; state "visits" (value) is new');
    expect(resumeInto(processDoc(counting), processDoc(counting, { keyBy: 'page' })).join('\n')).toContain('operator "count" (process) changed incompatibly since the checkpoint: state "(key)" was key');
  });
});

describe('resuming broadcast rules', () => {
  const code = '(row, rules) => ({ ...row, limit: rules.get(row.sensor)?.threshold ?? null })';
  it('accepts changed code or a lookup instead of code: the rules state is the same', () => {
    expect(resumeInto(broadcastDoc({ ruleKey: 'sensor', code }), broadcastDoc({ ruleKey: 'sensor', code: code.replace('?? null', '?? 0') }))).toEqual([]);
    expect(resumeInto(broadcastDoc({ ruleKey: 'sensor', code }), broadcastDoc({ ruleKey: 'sensor', lookup: 'sensor' }))).toEqual([]);
  });

  it('refuses a different rule key, naming the operator', () => {
    expect(resumeInto(broadcastDoc({ ruleKey: 'sensor', code }), broadcastDoc({ ruleKey: 'unit', code }))).toEqual([
      expect.stringMatching(/^operator "bp" \(broadcastProcess\) changed incompatibly since the checkpoint: state "rules" was broadcast map .*"ruleKey":"sensor".*, now broadcast map .*"ruleKey":"unit"/),
    ]);
  });
});
