import type { Clock } from '../core/clock.ts';

/**
 * Aligned barriers for a multi-input subtask, as an explicit state machine (Flink's
 * BarrierHandlerState). An input that delivered barrier n is blocked until every input
 * has delivered it; then the subtask snapshots and forwards the barrier.
 */
export type AlignerState =
  | { kind: 'idle' }
  | { kind: 'aligning'; checkpointId: number; arrived: ReadonlySet<number>; startedAt: number; buffered: number };

export type AlignerAction =
  | { type: 'aligned'; checkpointId: number; alignMs: number; buffered: number }
  | { type: 'aborted'; checkpointId: number; reason: string };

export class BarrierAligner {
  private st: AlignerState = { kind: 'idle' };
  private readonly ended = new Set<number>();
  private lastSeen = 0;

  constructor(
    private readonly channels: number,
    private readonly clock: Clock,
  ) {}

  state(): AlignerState {
    return this.st;
  }

  isBlocked(channel: number): boolean {
    return this.st.kind === 'aligning' && this.st.arrived.has(channel);
  }

  /** The runner reports a record that waits behind a blocked channel. */
  noteBuffered(n: number): void {
    if (this.st.kind === 'aligning') this.st = { ...this.st, buffered: this.st.buffered + n };
  }

  onBarrier(channel: number, checkpointId: number): AlignerAction[] {
    const st = this.st;
    if (checkpointId < this.lastSeen || (st.kind === 'aligning' && checkpointId < st.checkpointId)) return []; // stale: that checkpoint was already given up
    if (st.kind === 'aligning' && checkpointId > st.checkpointId) {
      const aborted: AlignerAction = { type: 'aborted', checkpointId: st.checkpointId, reason: `barrier ${checkpointId} arrived before ${st.checkpointId} was aligned` };
      this.st = { kind: 'idle' };
      return [aborted, ...this.onBarrier(channel, checkpointId)];
    }
    this.lastSeen = checkpointId;
    const arrived = new Set(st.kind === 'aligning' ? st.arrived : []);
    arrived.add(channel);
    const next: AlignerState = {
      kind: 'aligning',
      checkpointId,
      arrived,
      startedAt: st.kind === 'aligning' ? st.startedAt : this.clock.now(),
      buffered: st.kind === 'aligning' ? st.buffered : 0,
    };
    this.st = next;
    return this.completeIfAligned();
  }

  /** An ended input will send no barrier; it no longer holds alignment back. */
  onEndOfInput(channel: number): AlignerAction[] {
    this.ended.add(channel);
    return this.st.kind === 'aligning' ? this.completeIfAligned() : [];
  }

  /** The coordinator gave up on a checkpoint (timeout, failure elsewhere). */
  cancel(checkpointId: number, reason: string): AlignerAction[] {
    if (this.st.kind !== 'aligning' || this.st.checkpointId !== checkpointId) return [];
    this.st = { kind: 'idle' };
    return [{ type: 'aborted', checkpointId, reason }];
  }

  private completeIfAligned(): AlignerAction[] {
    const st = this.st;
    if (st.kind !== 'aligning') return [];
    for (let c = 0; c < this.channels; c++) if (!st.arrived.has(c) && !this.ended.has(c)) return [];
    this.st = { kind: 'idle' };
    return [{ type: 'aligned', checkpointId: st.checkpointId, alignMs: this.clock.now() - st.startedAt, buffered: st.buffered }];
  }
}
