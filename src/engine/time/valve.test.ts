import { describe, expect, it } from 'vitest';
import { combinedWatermark } from './valve.ts';
import { MIN_WATERMARK } from '../types.ts';

const ch = (wm: number, idle = false, ended = false) => ({ wm, idle, ended });

describe('combinedWatermark', () => {
  it('is the minimum over active inputs, skipping idle ones', () => {
    expect(combinedWatermark([ch(5), ch(9)])).toBe(5);
    expect(combinedWatermark([ch(5, true), ch(9)])).toBe(9);
  });

  it('does not advance while every live input is idle, even beside an ended one', () => {
    expect(combinedWatermark([ch(5, true), ch(9, true)])).toBe(MIN_WATERMARK);
    expect(combinedWatermark([ch(5, true), ch(Infinity, false, true)])).toBe(MIN_WATERMARK);
  });

  it('lets an ended input hold nothing back, whatever it sent last (a restore re-sends only its end)', () => {
    expect(combinedWatermark([ch(MIN_WATERMARK, false, true), ch(40)])).toBe(40);
    expect(combinedWatermark([ch(MIN_WATERMARK, false, true), ch(MIN_WATERMARK, true, true)])).toBe(Infinity);
  });

  it('keeps a live input that sent its final watermark at Infinity', () => {
    expect(combinedWatermark([ch(Infinity), ch(Infinity, false, true)])).toBe(Infinity);
  });
});
