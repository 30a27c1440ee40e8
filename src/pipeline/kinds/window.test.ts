import { describe, expect, it } from 'vitest';
import { compile } from '../compile.ts';
import { windowSpec } from './window.ts';
import type { WindowParams } from './window.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';

const input: StreamInfo = { fields: { user: 'string', amount: 'integer', ts: 'timestamp' }, eventTime: 'ts', keyedBy: null, changelog: 'append', uniqueKey: null };
const infer = (params: Partial<WindowParams>, inp: StreamInfo = input) =>
  windowSpec.infer({ nodeId: 'w', params: { groupBy: ['user'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }], type: 'tumble', sizeMs: 1000, ...params } as WindowParams, inputs: { in: inp }, inputLists: { in: [inp] } });
const codes = (params: Partial<WindowParams>, inp?: StreamInfo) => (infer(params, inp).problems ?? []).map((p) => [p.field, p.code]);

describe('window spec', () => {
  it('infers groupBy, window columns then aggregates, with window_time as event time', () => {
    const { outputs, problems } = infer({});
    expect(problems).toEqual([]);
    expect(Object.entries(outputs.out.fields!)).toEqual([
      ['user', 'string'],
      ['window_start', 'timestamp'],
      ['window_end', 'timestamp'],
      ['window_time', 'timestamp'],
      ['total', 'integer'],
    ]);
    expect(outputs.out).toMatchObject({ eventTime: 'window_time', changelog: 'append', uniqueKey: ['user', 'window_start', 'window_end'] });
    expect(outputs.late).toEqual(input);
    expect(infer({ allowedLatenessMs: 10 }).outputs.out.changelog).toBe('update');
  });

  it('checks the collecting calls: jsonObjectAgg needs a known keyField, their options belong to them, sessions refuse them', () => {
    const agg = (c: Record<string, unknown>) => ({ aggregates: [{ as: 'x', ...c }] as WindowParams['aggregates'] });
    expect(codes(agg({ fn: 'jsonObjectAgg', field: 'amount', keyField: 'user' }))).toEqual([]);
    expect(codes(agg({ fn: 'jsonObjectAgg', field: 'amount' }))).toEqual([['params.aggregates[0].keyField', 'missing-param']]);
    expect(codes(agg({ fn: 'jsonObjectAgg', field: 'amount', keyField: 'nope' }))).toEqual([['params.aggregates[0].keyField', 'unknown-field']]);
    expect(codes(agg({ fn: 'sum', field: 'amount', keyField: 'user', nulls: 'skip', jsonValues: true }))).toEqual([
      ['params.aggregates[0].keyField', 'bad-param-value'],
      ['params.aggregates[0].nulls', 'bad-param-value'],
      ['params.aggregates[0].jsonValues', 'bad-param-value'],
    ]);
    expect(codes({ ...agg({ fn: 'arrayAgg', field: 'user' }), type: 'session', gapMs: 10 })).toEqual([['params.aggregates[0].fn', 'bad-param-value']]);
  });

  it('takes FIRST_VALUE/LAST_VALUE in windows that never merge, and refuses them in sessions', () => {
    const ends = [{ fn: 'firstValue', field: 'amount', as: 'first' }, { fn: 'lastValue', field: 'user', as: 'last' }] as WindowParams['aggregates'];
    expect(infer({ aggregates: ends }).problems).toEqual([]);
    expect(infer({ aggregates: ends }).outputs.out.fields).toMatchObject({ first: 'integer', last: 'string' });
    expect(codes({ type: 'session', gapMs: 10, aggregates: ends })).toEqual([['params.aggregates[0].fn', 'bad-param-value'], ['params.aggregates[1].fn', 'bad-param-value']]);
  });

  it('takes LISTAGG of a string with or without a separator, and refuses it of a number, in sessions, or a separator elsewhere', () => {
    const lists = [{ fn: 'listAgg', field: 'user', as: 'users' }, { fn: 'listAgg', field: 'user', as: 'users2', separator: '; ' }] as WindowParams['aggregates'];
    expect(infer({ aggregates: lists }).problems).toEqual([]);
    expect(infer({ aggregates: lists }).outputs.out.fields).toMatchObject({ users: 'string', users2: 'string' });
    expect(codes({ aggregates: [{ fn: 'listAgg', field: 'amount', as: 'l' }] })).toEqual([['params.aggregates[0].field', 'bad-param-value']]);
    expect(codes({ aggregates: [{ fn: 'max', field: 'amount', as: 'm', separator: ',' }] })).toEqual([['params.aggregates[0].separator', 'bad-param-value']]);
    expect(codes({ type: 'session', gapMs: 10, aggregates: lists })).toEqual([['params.aggregates[0].fn', 'bad-param-value'], ['params.aggregates[1].fn', 'bad-param-value']]);
  });

  it('names the missing size, slide, gap or step', () => {
    expect(codes({ sizeMs: undefined })).toEqual([['params.sizeMs', 'missing-param']]);
    expect(codes({ type: 'hop' })).toEqual([['params.slideMs', 'missing-param']]);
    expect(codes({ type: 'session', sizeMs: undefined })).toEqual([['params.gapMs', 'missing-param']]);
    expect(codes({ type: 'cumulate', sizeMs: undefined })).toEqual([
      ['params.sizeMs', 'missing-param'],
      ['params.stepMs', 'missing-param'],
    ]);
  });

  it('rejects a slide larger than the size and a cumulate size that is not a multiple of the step', () => {
    expect(codes({ type: 'hop', slideMs: 2000 })).toEqual([['params.slideMs', 'bad-param-value']]);
    expect(codes({ type: 'hop', slideMs: 300 })).toEqual([]);
    expect(codes({ type: 'cumulate', stepMs: 300 })).toEqual([['params.sizeMs', 'bad-param-value']]);
    expect(codes({ type: 'cumulate', stepMs: 250 })).toEqual([]);
  });

  it('asks for event time on the source', () => {
    const problems = infer({}, { ...input, eventTime: null }).problems!;
    expect(problems.map((p) => [p.field, p.code])).toEqual([['inputs.in', 'no-event-time']]);
    expect(problems[0].message).toMatch(/set `eventTime`.*on the source/);
    const unconnected = windowSpec.infer({ nodeId: 'w', params: windowSpec.defaults, inputs: {}, inputLists: {} });
    expect(unconnected.problems).toEqual([]);
  });

  it('reports unknown fields and clashes with the window columns', () => {
    expect(codes({ groupBy: ['usr'] })).toEqual([['params.groupBy[0]', 'unknown-field']]);
    expect(codes({ aggregates: [{ fn: 'count', as: 'window_end' }] })).toEqual([['params.aggregates[0].as', 'duplicate-column']]);
  });

  it('is found by compile, which also checks the params schema', () => {
    const doc = (params: Record<string, unknown>) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 'w',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ user: 'a', amount: 1, ts: 0 }] } },
        { id: 'w', kind: 'window', params },
        { id: 'v', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'w', port: 'in' } },
        { from: { node: 'w', port: 'out' }, to: { node: 'v', port: 'in' } },
      ],
    });
    const { problems } = compile(doc({ type: 'slide', sizeMs: 0, groupBy: [], aggregates: [{ fn: 'count', as: 'n' }] }));
    expect(problems.map((p) => [p.target, p.field, p.code])).toEqual(
      expect.arrayContaining([
        ['w', 'params.type', 'bad-param-value'],
        ['w', 'params.sizeMs', 'bad-param-value'],
        ['w', 'inputs.in', 'no-event-time'],
      ]),
    );
    expect(compile(doc(windowSpec.defaults as unknown as Record<string, unknown>)).problems.map((p) => p.code)).toEqual(['no-event-time']);
  });

  it('has defaults and an example that validate against an event-time stream', () => {
    for (const p of [windowSpec.defaults, windowSpec.example]) {
      const fields = { ...input.fields, store_id: 'string' as const };
      expect(windowSpec.infer({ nodeId: 'w', params: p, inputs: { in: { ...input, fields } }, inputLists: {} }).problems).toEqual([]);
    }
  });
});
