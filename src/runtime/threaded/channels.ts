import type { ChannelMessage } from '../messages.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import { decodeBatch, encodeBatch } from './codec.ts';
import type { BatchEncoding } from './codec.ts';
import type { EdgeFill, PeerFrame, WireMessage } from './protocol.ts';
import { channelKey } from './protocol.ts';

interface OutChannel {
  key: number;
  edge: number;
  /** Worker of the receiving subtask, or null when it lives in this worker. */
  peer: number | null;
  inFlight: number;
  maxInFlight: number;
  /** Messages it may have in flight (its credit). */
  capacity: number;
  backlog: ChannelMessage[];
}

interface InChannel {
  key: number;
  edge: number;
  peer: number | null;
  runner: SubtaskRunner;
  index: number;
  delivered: number;
  acked: number;
  maxQueued: number;
  capacity: number;
}

/**
 * Every channel touching one worker, with credit-based flow control (Flink's credit model): a
 * sender may have at most its channel's capacity of messages in flight; the receiver returns credit
 * as its runner consumes them. Messages beyond the credit wait in the sender's backlog, in order,
 * and a runner with a backlog on any output is not runnable, so a slow operator stalls its
 * upstream all the way to the source and no queue grows past its channel's capacity.
 */
export class ChannelTable {
  private readonly outs = new Map<number, OutChannel>();
  private readonly ins = new Map<number, InChannel>();
  private readonly insByRunner = new Map<SubtaskRunner, InChannel[]>();
  private readonly frames = new Map<number, { frames: PeerFrame[]; transfer: Transferable[] }>();
  private readonly credits = new Map<number, Map<number, number>>();
  messagesSent = 0;
  messagesReceived = 0;

  constructor(
    /** Credit of a channel added without one of its own. */
    readonly capacity: number,
    private readonly encoding: BatchEncoding,
  ) {}

  /** Both ends of a channel must be given the same `capacity`. */
  addOut(edge: number, from: number, to: number, peer: number | null, capacity = this.capacity): void {
    const key = channelKey(edge, from, to);
    this.outs.set(key, { key, edge, peer, inFlight: 0, maxInFlight: 0, capacity, backlog: [] });
  }

  addIn(edge: number, from: number, to: number, peer: number | null, runner: SubtaskRunner, capacity = this.capacity): void {
    const key = channelKey(edge, from, to);
    const ch: InChannel = { key, edge, peer, runner, index: runner.channelIndex(edge, from), delivered: 0, acked: 0, maxQueued: 0, capacity };
    if (ch.index < 0) throw new Error(`${runner.id} has no input channel for edge ${edge} from subtask ${from}`);
    this.ins.set(key, ch);
    const list = this.insByRunner.get(runner) ?? [];
    list.push(ch);
    this.insByRunner.set(runner, list);
  }

  hasCredit(edge: number, from: number, to: number): boolean {
    const o = this.outs.get(channelKey(edge, from, to))!;
    return o.backlog.length === 0 && o.inFlight < o.capacity;
  }

  send(edge: number, from: number, to: number, msg: ChannelMessage): void {
    const o = this.outs.get(channelKey(edge, from, to))!;
    if (o.backlog.length === 0 && o.inFlight < o.capacity) return this.deliver(o, msg);
    // Only the latest of several waiting watermarks matters (they only move forward).
    const last = o.backlog[o.backlog.length - 1];
    if (msg.t === 'wm' && last?.t === 'wm') o.backlog[o.backlog.length - 1] = msg;
    else o.backlog.push(msg);
  }

  private deliver(o: OutChannel, msg: ChannelMessage): void {
    o.inFlight++;
    if (o.inFlight > o.maxInFlight) o.maxInFlight = o.inFlight;
    if (o.peer === null) return this.enqueue(this.ins.get(o.key)!, msg);
    let f = this.frames.get(o.peer);
    if (!f) this.frames.set(o.peer, (f = { frames: [], transfer: [] }));
    const m: WireMessage = msg.t === 'batch' ? { t: 'batch', b: encodeBatch(msg.els, this.encoding, f.transfer) } : msg;
    f.frames.push({ k: o.key, m });
    this.messagesSent++;
  }

  private enqueue(ch: InChannel, msg: ChannelMessage): void {
    ch.runner.enqueue(ch.index, msg);
    ch.delivered++;
    const q = ch.runner.queued(ch.index);
    if (q > ch.maxQueued) ch.maxQueued = q;
  }

  /** Frames that arrived from worker `peer`. */
  receive(peer: number, frames: readonly PeerFrame[]): void {
    for (const f of frames) {
      if ('credit' in f) this.returnCredit(f.k, f.credit);
      else {
        const ch = this.ins.get(f.k);
        if (!ch) throw new Error(`worker got data for unknown channel ${f.k} from worker ${peer}`);
        const m = f.m;
        this.enqueue(ch, m.t === 'batch' ? { t: 'batch', els: decodeBatch(m.b) } : m);
        this.messagesReceived++;
      }
    }
  }

  /** After `runner` ran: what it consumed goes back to its senders as credit. */
  reconcile(runner: SubtaskRunner): void {
    const list = this.insByRunner.get(runner);
    if (!list) return;
    for (const ch of list) {
      const consumed = ch.delivered - ch.runner.queued(ch.index);
      const n = consumed - ch.acked;
      if (n <= 0) continue;
      ch.acked = consumed;
      if (ch.peer === null) this.returnCredit(ch.key, n);
      else {
        let m = this.credits.get(ch.peer);
        if (!m) this.credits.set(ch.peer, (m = new Map()));
        m.set(ch.key, (m.get(ch.key) ?? 0) + n);
      }
    }
  }

  private returnCredit(key: number, n: number): void {
    const o = this.outs.get(key);
    if (!o) return;
    o.inFlight -= n;
    while (o.backlog.length && o.inFlight < o.capacity) this.deliver(o, o.backlog.shift()!);
  }

  /** Hands each peer its frames (credit first) as one message; returns whether anything was sent. */
  flush(post: (peer: number, frames: PeerFrame[], transfer: Transferable[]) => void): boolean {
    let any = false;
    for (const [peer, credits] of this.credits) {
      if (!credits.size) continue;
      let f = this.frames.get(peer);
      if (!f) this.frames.set(peer, (f = { frames: [], transfer: [] }));
      for (const [k, credit] of credits) f.frames.unshift({ k, credit });
      credits.clear();
    }
    for (const [peer, f] of this.frames) {
      if (!f.frames.length) continue;
      post(peer, f.frames, f.transfer);
      this.frames.delete(peer);
      any = true;
    }
    return any;
  }

  /** True when nothing waits for credit in this worker. */
  drained(): boolean {
    for (const o of this.outs.values()) if (o.backlog.length) return false;
    return true;
  }

  fill(edgeName: (edge: number) => string): EdgeFill[] {
    const byEdge = new Map<number, EdgeFill>();
    const get = (edge: number) => {
      let f = byEdge.get(edge);
      if (!f) byEdge.set(edge, (f = { edge: edgeName(edge), queued: 0, capacity: 0, inFlight: 0, maxQueued: 0, maxInFlight: 0 }));
      return f;
    };
    for (const ch of this.ins.values()) {
      const f = get(ch.edge);
      f.queued += ch.runner.queued(ch.index);
      f.capacity += ch.capacity;
      f.maxQueued = Math.max(f.maxQueued, ch.maxQueued);
    }
    for (const o of this.outs.values()) {
      if (o.peer === null) continue;
      const f = get(o.edge);
      f.inFlight += o.inFlight;
      f.maxInFlight = Math.max(f.maxInFlight, o.maxInFlight);
    }
    return [...byEdge.values()];
  }
}
