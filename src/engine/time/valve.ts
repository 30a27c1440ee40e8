import { MIN_WATERMARK } from '../../core/types.ts';

export interface ChannelTime {
  wm: number;
  idle: boolean;
  ended: boolean;
}

/**
 * A multi-input operator's watermark: the minimum over inputs that are not idle (Flink's
 * StatusWatermarkValve). With every input idle it stays where it is (MIN_WATERMARK here).
 * An ended input counts as at the end of time, whatever watermark it last sent: it sends no
 * more records. A bounded input that ended before a checkpoint re-runs from its end after a
 * restore and sends only its end again; its final watermark went, before the checkpoint, to a
 * channel that is gone, and must not be waited for.
 */
export function combinedWatermark(channels: Iterable<ChannelTime>): number {
  let min = Infinity;
  let active = 0;
  for (const ch of channels) {
    if (ch.idle && !ch.ended) continue;
    active++;
    if (!ch.ended && ch.wm < min) min = ch.wm;
  }
  return active === 0 ? MIN_WATERMARK : min;
}
