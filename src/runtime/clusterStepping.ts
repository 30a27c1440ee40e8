import type { ChannelMessage } from './messages.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';
import type { HoldMode } from './runHistory.ts';
import type { ClusterPhase, StepTarget, StepUntilResult } from './clusterTypes.ts';

const STEP_MESSAGE: Record<StepTarget, ChannelMessage['t']> = { record: 'batch', watermark: 'wm', barrier: 'barrier' };

/** What the sources put on their channels while `stepUntil` runs. */
interface SourceSends {
  batch: number;
  wm: number;
  barrier: number;
  records: number;
}

/**
 * Stepping by message for the designer: whether sources are held back (so everything one source
 * message caused can settle) and, while a `stepUntil` runs, what the sources sent. The cluster's
 * scheduler asks `heldBack` for every source it might run; its host counts every source send.
 */
export class SourceHold {
  mode: HoldMode = 'no';
  sent: SourceSends | null = null;

  heldBack(r: SubtaskRunner): boolean {
    if (this.mode === 'no' || !r.source) return false;
    return this.mode === 'all' || !r.hasPendingBarrier();
  }

  count(msg: ChannelMessage): void {
    const s = this.sent!;
    if (msg.t === 'batch') {
      s.batch++;
      s.records += msg.els.length;
    } else if (msg.t === 'wm') s.wm++;
    else if (msg.t === 'barrier') s.barrier++;
  }
}

/** What `stepUntil` drives: the in-process cluster's stepping surface. */
export interface Steppable {
  start(): Promise<void>;
  step(): Promise<ClusterPhase>;
  phaseNow(): ClusterPhase;
  waitingForInput(): boolean;
  subtasks(): readonly SubtaskRunner[];
}

/**
 * Steps until a source put one record batch / watermark / barrier on its channels, then holds
 * sources back and steps the rest until nothing more can run (see LocalCluster.stepUntil).
 */
export async function stepUntil(c: Steppable, hold: SourceHold, target: StepTarget, maxSteps: number): Promise<StepUntilResult> {
  await c.start();
  const sent = (hold.sent = { batch: 0, wm: 0, barrier: 0, records: 0 });
  const want = STEP_MESSAGE[target] as 'batch' | 'wm' | 'barrier';
  let steps = 0;
  try {
    while (c.phaseNow() === 'running' && steps < maxSteps && sent[want] === 0) {
      await c.step();
      steps++;
      if (c.waitingForInput() && !c.subtasks().some((r) => r.runnable())) break;
    }
    // A checkpoint's barriers leave every source: let the others inject theirs so alignment can finish.
    hold.mode = target === 'barrier' ? 'except-barriers' : 'all';
    while (c.phaseNow() === 'running' && steps < maxSteps && c.subtasks().some((r) => !hold.heldBack(r) && r.runnable())) {
      await c.step();
      steps++;
    }
  } finally {
    hold.mode = 'no';
    hold.sent = null;
  }
  return { reached: sent[want] > 0, steps, phase: c.phaseNow(), sourceRecords: sent.records, sourceWatermarks: sent.wm, sourceBarriers: sent.barrier };
}
