import { describe, expect, it } from 'vitest';
import { hold } from './heldWhileRunning.ts';

describe('hold', () => {
  it('keeps the shown value while running until it is `ms` old, then takes the newest', () => {
    let h = hold(null, 'a', true, 0, 250);
    expect(h.value).toBe('a');
    h = hold(h, 'b', true, 100, 250);
    expect(h.value).toBe('a');
    h = hold(h, 'c', true, 249, 250);
    expect(h.value).toBe('a');
    h = hold(h, 'd', true, 250, 250);
    expect(h).toEqual({ value: 'd', at: 250 });
  });

  it('shows a new value at once when the job is not running (pause, step, finish)', () => {
    let h = hold(null, 'a', true, 0, 250);
    h = hold(h, 'b', false, 10, 250);
    expect(h).toEqual({ value: 'b', at: 10 });
  });

  it('does not restart the clock when the same value comes again', () => {
    const h = hold(null, 'a', true, 0, 250);
    expect(hold(h, 'a', false, 500, 250)).toBe(h);
  });
});
