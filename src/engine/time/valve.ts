import { MIN_WATERMARK } from '../types.ts';

export interface ChannelTime {
  wm: number;
  idle: boolean;
  ended: boolean;
}

/**
 * A multi-input operator's watermark: the minimum over inputs that are not idle (Flink's
 * StatusWatermarkValve). With every input idle it stays where it is (MIN_WATERMARK here).
 */
export function combinedWatermark(channels: Iterable<ChannelTime>): number {
  let min = Infinity;
  let active = 0;
  for (const ch of channels) {
    if (ch.idle && !ch.ended) continue;
    active++;
    if (ch.wm < min) min = ch.wm;
  }
  return active === 0 ? MIN_WATERMARK : min;
}
