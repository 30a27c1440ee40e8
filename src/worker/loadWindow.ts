import type { LoadFigures, NodeLoad } from './protocol.ts';

/** Cumulative figures of one subtask at one moment. */
export interface SubtaskCounts {
  id: string;
  busyMs: number;
  backpressuredMs: number;
  recordsIn: number;
  recordsOut: number;
}

/** Cumulative figures of one node: its counts are the ones its metrics line shows. */
export interface NodeCounts {
  recordsIn: number;
  recordsOut: number;
  subtasks: SubtaskCounts[];
}

interface Sample {
  at: number;
  nodes: Record<string, NodeCounts>;
}

const WINDOW_MS = 1000;

/**
 * Turns cumulative counts (busy ms, backpressured ms, records) into figures over the last second
 * of wall time, as RateMeter does for the job's rate. A count that went down (a restart, a
 * restore: counters start again) gives 0 for that window rather than a negative rate.
 */
export class LoadWindow {
  private window: Sample[] = [];

  sample(at: number, nodes: Record<string, NodeCounts>): Record<string, NodeLoad> {
    this.window.push({ at, nodes });
    while (this.window.length > 2 && at - this.window[0].at > WINDOW_MS) this.window.shift();
    const first = this.window[0];
    const dt = at - first.at;
    const out: Record<string, NodeLoad> = {};
    for (const [id, now] of Object.entries(nodes)) {
      const before = first.nodes[id];
      const subtasks = now.subtasks.map((s) => ({ id: s.id, ...figures(s, before?.subtasks.find((b) => b.id === s.id), dt) }));
      const rates = figures({ busyMs: 0, backpressuredMs: 0, ...now }, before && { busyMs: 0, backpressuredMs: 0, ...before }, dt);
      out[id] = {
        busy: Math.max(0, ...subtasks.map((s) => s.busy)),
        backpressured: Math.max(0, ...subtasks.map((s) => s.backpressured)),
        inPerSec: rates.inPerSec,
        outPerSec: rates.outPerSec,
        subtasks,
      };
    }
    return out;
  }

  reset(): void {
    this.window = [];
  }
}

type Counts = Omit<SubtaskCounts, 'id'>;

function figures(now: Counts, before: Counts | undefined, dt: number): LoadFigures {
  if (!before || dt <= 0) return { busy: 0, backpressured: 0, inPerSec: 0, outPerSec: 0 };
  const share = (a: number, b: number) => (a >= b ? Math.min(1, (a - b) / dt) : 0);
  const rate = (a: number, b: number) => (a >= b ? ((a - b) * 1000) / dt : 0);
  return {
    busy: share(now.busyMs, before.busyMs),
    backpressured: share(now.backpressuredMs, before.backpressuredMs),
    inPerSec: rate(now.recordsIn, before.recordsIn),
    outPerSec: rate(now.recordsOut, before.recordsOut),
  };
}
