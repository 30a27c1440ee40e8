import { describe, expect, it } from 'vitest';
import type { TraceEntry } from '../../runtime/observe/types.ts';
import { sameTraceEntry } from './TraceList.tsx';

const entry = (hops: TraceEntry['hops']): TraceEntry => ({ seq: 7, source: 'orders', row: { id: 1 }, hops });
const hop = (emitted = 0, stateChanged = false): TraceEntry['hops'][number] => ({
  node: 'count',
  subtask: 0,
  emitted: Array.from({ length: emitted }, () => ({ port: 'out', kind: '+I' as const, row: { id: 1 } })),
  stateChanged,
});

describe('sameTraceEntry', () => {
  it('treats a fresh copy of an unchanged entry as the same (no redraw)', () => {
    expect(sameTraceEntry({ e: entry([hop(1)]) }, { e: structuredClone(entry([hop(1)])) })).toBe(true);
  });

  it('redraws when the record reached another hop, emitted more, or changed state', () => {
    expect(sameTraceEntry({ e: entry([hop(1)]) }, { e: entry([hop(1), hop()]) })).toBe(false);
    expect(sameTraceEntry({ e: entry([hop(1)]) }, { e: entry([hop(2)]) })).toBe(false);
    expect(sameTraceEntry({ e: entry([hop(1)]) }, { e: entry([hop(1, true)]) })).toBe(false);
    expect(sameTraceEntry({ e: entry([hop(1)]) }, { e: { ...entry([hop(1)]), seq: 8 } })).toBe(false);
  });
});
