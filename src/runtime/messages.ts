import type { Element } from '../core/types.ts';

/** What travels on a data channel between subtasks. Records always travel in batches. */
export type ChannelMessage =
  | { t: 'batch'; els: Element[] }
  | { t: 'wm'; wm: number }
  | { t: 'idle'; idle: boolean }
  | { t: 'barrier'; id: number }
  | { t: 'end' };
