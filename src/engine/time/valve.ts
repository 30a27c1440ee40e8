import { MIN_WATERMARK } from '../types.ts';

export interface ChannelTime {
  wm: number;
  idle: boolean;
  ended: boolean;
}

/**
 * A multi-input operator's watermark: the minimum over live inputs that are not idle (Flink's
 * StatusWatermarkValve). With every live input idle it stays where it is (MIN_WATERMARK here:
 * no advance). An ended input holds nothing back, whatever watermark it last sent, since it sends
 * no more records: a bounded input that ended before a checkpoint re-runs from its end after a
 * restore and sends only its end again, its final watermark having gone to a channel that is gone.
 */
export function combinedWatermark(channels: Iterable<ChannelTime>): number {
  let min = Infinity;
  let active = 0;
  let idle = 0;
  for (const ch of channels) {
    if (ch.ended) continue;
    if (ch.idle) idle++;
    else {
      active++;
      if (ch.wm < min) min = ch.wm;
    }
  }
  if (active > 0) return min;
  // No active input: with some live but idle, no advance; with every input ended, time is over.
  return idle > 0 ? MIN_WATERMARK : Infinity;
}
