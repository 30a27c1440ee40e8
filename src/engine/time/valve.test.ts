import { describe, expect, it } from 'vitest';
import { combinedWatermark } from './valve.ts';
import { MIN_WATERMARK } from '../../core/types.ts';

const ch = (wm: number, idle = false, ended = false) => ({ wm, idle, ended });

describe('combinedWatermark', () => {
  it('is the minimum over active inputs, skipping idle ones', () => {
    expect(combinedWatermark([ch(5), ch(9)])).toBe(5);
    expect(combinedWatermark([ch(5, true), ch(9)])).toBe(9);
  });

  it('does not advance while every input is idle', () => {
    expect(combinedWatermark([ch(5, true), ch(9, true)])).toBe(MIN_WATERMARK);
  });

  it('counts an ended input as at the end of time, whatever it sent last (a restore re-sends only its end)', () => {
    expect(combinedWatermark([ch(MIN_WATERMARK, false, true), ch(40)])).toBe(40);
    expect(combinedWatermark([ch(MIN_WATERMARK, false, true), ch(MIN_WATERMARK, true, true)])).toBe(Infinity);
    // As if it had sent its final watermark: beside an idle input, nothing holds time back.
    expect(combinedWatermark([ch(5, true), ch(MIN_WATERMARK, false, true)])).toBe(Infinity);
    expect(combinedWatermark([ch(5, true), ch(Infinity)])).toBe(Infinity);
  });
});
