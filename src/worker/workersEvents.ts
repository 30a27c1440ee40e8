import type { EventLine } from './clusterEvents.ts';

/** What a line of the job manager's log means for the run's status. */
export type ManagerNote =
  | { t: 'failure'; reason: string }
  | { t: 'restored'; attempt: number; checkpointId: number }
  | { t: 'deployed'; attempt: number }
  | { t: 'aborted'; checkpointId: number; reason: string }
  | { t: 'other' };

/** Reads one line the threaded job manager logs (see jobManager.ts); anything else is 'other'. */
export function readManagerLine(line: string): ManagerNote {
  let m = /^restart \d+ in \d+ ms after: (.*)$/s.exec(line);
  if (m) return { t: 'failure', reason: m[1] };
  m = /^attempt (\d+): restoring from checkpoint (\d+)/.exec(line);
  if (m) return { t: 'restored', attempt: Number(m[1]), checkpointId: Number(m[2]) };
  m = /^attempt (\d+): \d+ workers deployed/.exec(line);
  if (m) return { t: 'deployed', attempt: Number(m[1]) };
  m = /^checkpoint (\d+) aborted: (.*)$/s.exec(line);
  if (m) return { t: 'aborted', checkpointId: Number(m[1]), reason: m[2] };
  return { t: 'other' };
}

/**
 * Turns the job manager's log into the designer's log, worded as the in-process run words the same
 * events (clusterEvents.ts), so a kill reads the same wherever the run executes. `restoredIn` says
 * which attempts restored a checkpoint, so an attempt that did not says "from the beginning".
 */
export class ManagerLog {
  private readonly restoredIn = new Set<number>();
  /** The checkpoint the current attempt restored, or null when it started from the beginning. */
  restoredFrom: number | null = null;

  line(text: string): EventLine | null {
    const n = readManagerLine(text);
    switch (n.t) {
      case 'failure':
        return { level: 'error', message: `job failed: ${n.reason}`, node: /subtask (\S+)#\d+/.exec(n.reason)?.[1] };
      case 'restored':
        this.restoredIn.add(n.attempt);
        this.restoredFrom = n.checkpointId;
        return n.attempt > 1 ? { level: 'warn', message: `job restarted from checkpoint ${n.checkpointId} (attempt ${n.attempt})` } : { level: 'info', message: `resumed from checkpoint ${n.checkpointId}` };
      case 'deployed':
        if (n.attempt === 1 || this.restoredIn.has(n.attempt)) return { level: 'info', message: text };
        this.restoredFrom = null;
        return { level: 'warn', message: `job restarted from the beginning (no checkpoint yet) (attempt ${n.attempt})` };
      case 'aborted':
        return { level: 'warn', message: `checkpoint ${n.checkpointId} aborted: ${n.reason}` };
      default:
        return { level: 'info', message: text };
    }
  }
}
