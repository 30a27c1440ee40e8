import { MIN_WATERMARK } from '../core/types.ts';
import type { Clock } from '../core/clock.ts';
import { combinedWatermark } from '../engine/time/valve.ts';
import { BarrierAligner } from '../checkpoint/barrierAligner.ts';
import type { AlignerAction } from '../checkpoint/barrierAligner.ts';
import type { ChannelMessage } from './messages.ts';

/** One upstream subtask's channel into this subtask: its queue and what it last said about time. */
export interface InChannel {
  edge: number;
  port: string;
  from: number;
  queue: ChannelMessage[];
  head: number;
  wm: number;
  idle: boolean;
  ended: boolean;
}

/** Fills consumed queue slots: one shared message keeps the array's elements of one kind. */
const CONSUMED: ChannelMessage = { t: 'end' };

/** Read-only view of one input channel, for queue fill and barriers in flight. */
export interface InputChannelView {
  edge: number;
  port: string;
  from: number;
  queued: number;
  watermark: number;
  blocked: boolean;
  /** Barriers waiting in the queue with their distance from the head (0 = next to be read). */
  barriers: { checkpointId: number; position: number }[];
}

/**
 * A subtask's input side (Flink's input gate with its barrier handler): one queue per upstream
 * subtask, read round-robin, skipping the channels the aligner holds back; the watermark valve
 * over them; and whether every live input is idle.
 */
export class InputChannels {
  readonly list: InChannel[] = [];
  private aligner!: BarrierAligner;
  private rr = 0;

  add(edge: number, port: string, from: number): void {
    this.list.push({ edge, port, from, queue: [], head: 0, wm: MIN_WATERMARK, idle: false, ended: false });
  }

  /** Called once every channel was added. */
  seal(clock: Clock): void {
    this.aligner = new BarrierAligner(this.list.length, clock);
  }

  get size(): number {
    return this.list.length;
  }

  indexOf(edge: number, from: number): number {
    return this.list.findIndex((c) => c.edge === edge && c.from === from);
  }

  enqueue(channel: number, msg: ChannelMessage): void {
    this.list[channel].queue.push(msg);
  }

  queued(channel: number): number {
    const c = this.list[channel];
    return c.queue.length - c.head;
  }

  /** Takes the next message of the next readable channel (round-robin), or null. */
  next(): { ci: number; c: InChannel; msg: ChannelMessage } | null {
    const n = this.list.length;
    for (let k = 0; k < n; k++) {
      const ci = (this.rr + k) % n;
      const c = this.list[ci];
      if (c.head >= c.queue.length || this.aligner.isBlocked(ci)) continue;
      this.rr = (ci + 1) % n;
      const msg = c.queue[c.head];
      // A consumed slot must not keep its batch reachable: every element of it would survive into
      // the old generation (measured: a third more CPU per record on the keyed count).
      c.queue[c.head++] = CONSUMED;
      if (c.head === c.queue.length) {
        c.queue.length = 0;
        c.head = 0;
      } else if (c.head > 256 && c.head * 2 > c.queue.length) {
        c.queue.splice(0, c.head);
        c.head = 0;
      }
      return { ci, c, msg };
    }
    return null;
  }

  hasReadable(): boolean {
    for (let i = 0; i < this.list.length; i++) {
      const c = this.list[i];
      if (c.head < c.queue.length && !this.aligner.isBlocked(i)) return true;
    }
    return false;
  }

  watermark(): number {
    return combinedWatermark(this.list);
  }

  /** Every input that has not ended is idle (and at least one has not ended): the subtask is idle too. */
  allIdle(): boolean {
    let live = 0;
    for (const c of this.list) {
      if (c.ended) continue;
      live++;
      if (!c.idle) return false;
    }
    return live > 0;
  }

  /** Every channel into `port` ended. */
  portEnded(port: string): boolean {
    return this.list.every((c) => c.port !== port || c.ended);
  }

  allEnded(): boolean {
    return this.list.every((c) => c.ended);
  }

  onBarrier(ci: number, id: number): AlignerAction[] {
    return this.aligner.onBarrier(ci, id);
  }

  onEnd(ci: number): AlignerAction[] {
    this.list[ci].ended = true;
    return this.aligner.onEndOfInput(ci);
  }

  isAligning(): boolean {
    return this.aligner.state().kind === 'aligning';
  }

  views(): InputChannelView[] {
    return this.list.map((c, i) => {
      const barriers: InputChannelView['barriers'] = [];
      for (let j = c.head; j < c.queue.length; j++) {
        const m = c.queue[j];
        if (m.t === 'barrier') barriers.push({ checkpointId: m.id, position: j - c.head });
      }
      return { edge: c.edge, port: c.port, from: c.from, queued: c.queue.length - c.head, watermark: c.wm, blocked: this.aligner.isBlocked(i), barriers };
    });
  }

  /** The alignment in progress: blocked channels and the records waiting behind them. */
  alignment(): { checkpointId: number; blockedChannels: number[]; buffered: number } | null {
    const st = this.aligner.state();
    if (st.kind !== 'aligning') return null;
    const blockedChannels = [...st.arrived].sort((a, b) => a - b);
    let buffered = st.buffered;
    for (const ci of blockedChannels) {
      const c = this.list[ci];
      for (let j = c.head; j < c.queue.length; j++) {
        const m = c.queue[j];
        if (m.t === 'batch') buffered += m.els.length;
      }
    }
    return { checkpointId: st.checkpointId, blockedChannels, buffered };
  }
}
