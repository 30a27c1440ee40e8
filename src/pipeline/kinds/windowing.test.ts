import { describe, expect, it } from 'vitest';
import { kindSpec } from './index.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';

const stream = (extra: Partial<StreamInfo> = {}): StreamInfo => ({ fields: { k: 'string', v: 'integer', ts: 'timestamp' }, eventTime: 'ts', keyedBy: null, changelog: 'append', uniqueKey: null, ...extra });
const problems = (kind: string, params: Record<string, unknown>, inputs: Record<string, StreamInfo>) =>
  kindSpec(kind)!.infer({ params, inputs } as never).problems!.map((p) => `${p.field}: ${p.message}`);

describe('validation of the window and frame params', () => {
  it('overAggregate: frame bounds, event time and inserts-only are checked where they are set', () => {
    expect(problems('overAggregate', { partitionBy: ['k'], frame: 'rows', precedingMs: 5, aggregates: [{ fn: 'sum', field: 'v', as: 'v' }] }, { in: stream({ eventTime: null, changelog: 'update' }) })).toEqual([
      'params.precedingMs: precedingMs belongs to a RANGE frame; use precedingRows for ROWS, or set frame to "range"',
      'params.aggregates[0].as: the input already has a field "v"; choose another output name',
      'inputs.in: OVER aggregation orders rows by event time, and this input has none; set `eventTime` on the source',
      'inputs.in: OVER aggregation takes only inserts (as in Flink), but this input is updating; aggregate with a Group by instead, or deduplicate to first rows before',
    ]);
  });

  it('overAggregate: LAG only in the frame Flink gives it, offset and default only on LAG; the types follow the field', () => {
    const lag = { fn: 'lag', field: 'v', as: 'prev', offset: 2, default: 0 };
    expect(problems('overAggregate', { partitionBy: ['k'], frame: 'range', aggregates: [lag, { fn: 'firstValue', field: 'k', as: 'first' }] }, { in: stream() })).toEqual([]);
    const frameMessage = 'params.aggregates[0].fn: LAG takes no frame of its own (Flink refuses ROWS/RANGE with LAG): set frame to "range" and leave precedingMs out, or compute the LAG in an over aggregate of its own';
    expect(problems('overAggregate', { partitionBy: ['k'], frame: 'rows', aggregates: [lag] }, { in: stream() })).toEqual([frameMessage]);
    expect(problems('overAggregate', { partitionBy: ['k'], frame: 'range', precedingMs: 10, aggregates: [lag] }, { in: stream() })).toEqual([frameMessage]);
    expect(problems('overAggregate', { partitionBy: ['k'], frame: 'range', aggregates: [{ fn: 'max', field: 'v', as: 'hi', default: 0 }, { fn: 'lag', as: 'nothing' }] }, { in: stream() })).toEqual([
      'params.aggregates[1].field: lag needs a field',
      'params.aggregates[0].default: offset and default belong to lag, not max; remove them or set fn to "lag"',
    ]);
    expect(problems('overAggregate', { partitionBy: [], frame: 'range', aggregates: [{ ...lag, default: 'none' }, { ...lag, as: 'p2', default: 1.5 }, { ...lag, as: 'p3', field: 'k', default: 'none' }] }, { in: stream() })).toEqual([
      'params.aggregates[0].default: the default "none" is not an integer like "v"; give one of that type (Flink\'s LAG refuses a default of another type)',
      'params.aggregates[1].default: the default 1.5 is not an integer like "v"; give one of that type (Flink\'s LAG refuses a default of another type)',
    ]);
    const out = kindSpec('overAggregate')!.infer({ params: { partitionBy: [], frame: 'range', aggregates: [lag, { fn: 'lastValue', field: 'k', as: 'last' }] }, inputs: { in: stream() } } as never).outputs.out;
    expect(out.fields).toMatchObject({ prev: 'integer', last: 'string' });
  });

  it('topN.window: shape, window columns and updating inputs', () => {
    const topN = (window: Record<string, unknown>, input = stream()) => problems('topN', { partitionBy: [], orderBy: [{ field: 'v', direction: 'desc' }], n: 1, window }, { in: input });
    expect(topN({ type: 'hop', sizeMs: 10, slideMs: 20 })).toEqual(['params.window.slideMs: slide (20 ms) is larger than size (10 ms): records between windows would belong to none']);
    expect(topN({ type: 'cumulate', sizeMs: 10 })).toEqual(['params.window.stepMs: a cumulate window needs stepMs']);
    expect(topN({ type: 'columns' })[0]).toBe('params.window.type: the in input has no "window_start" column; put a Window aggregate before this node or choose tumble, hop or cumulate');
    expect(topN({ type: 'tumble', sizeMs: 10 }, stream({ changelog: 'update' }))).toEqual([
      'inputs.in: window operators take only inserts, but the in input is updating; window it with a Window aggregate first or use the non-window kind',
    ]);
  });

  it('dedup.window orders by event time only', () => {
    expect(problems('dedup', { key: ['k'], keep: 'first', order: 'arrival', window: { type: 'tumble', sizeMs: 10 } }, { in: stream() })).toEqual([
      'params.order: window deduplication orders rows by event time (as Flink\'s); set order to "eventTime" or leave it out',
    ]);
  });
});
