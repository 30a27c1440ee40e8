import { describe, expect, it } from 'vitest';
import { activeBreakpoints, breakpointStore, setBreakpoint } from './breakpointStore.ts';

describe('breakpoints', () => {
  it('sends only enabled breakpoints, with a condition when one is written', () => {
    setBreakpoint('join', { on: true });
    setBreakpoint('count', { condition: '  amount > 10 ' });
    expect(activeBreakpoints(breakpointStore.get())).toEqual([{ node: 'join' }]);
    setBreakpoint('count', { on: true });
    expect(activeBreakpoints(breakpointStore.get())).toEqual([{ node: 'join' }, { node: 'count', condition: 'amount > 10' }]);
    setBreakpoint('join', { on: false });
    expect(breakpointStore.get().byNode.join).toEqual({ on: false, condition: '' });
    expect(activeBreakpoints(breakpointStore.get())).toEqual([{ node: 'count', condition: 'amount > 10' }]);
  });
});
