import type { ClusterEvent } from '../runtime/localCluster.ts';
import type { LogLine } from './protocol.ts';
import type { FeedStatus } from '../engine/feedConnection.ts';

export interface EventLine {
  level: LogLine['level'];
  message: string;
  node?: string;
}

/**
 * The log line a cluster event deserves. `records` is what the sources have read now (after a
 * restore: at the checkpoint); `travelling` is set while time travel redeploys the job, which is
 * neither a failure restart nor a resume.
 */
export function eventLine(e: ClusterEvent, records: number, travelling: boolean): EventLine | null {
  switch (e.type) {
    case 'checkpoint':
      if (e.status === 'completed') return { level: 'info', message: `checkpoint ${e.checkpointId} completed after ${records} records` };
      if (e.status === 'aborted') return { level: 'warn', message: `checkpoint ${e.checkpointId} aborted: ${e.reason ?? 'unknown reason'}` };
      return null;
    case 'failure':
      return { level: 'error', message: `job failed: ${e.reason}`, node: /subtask (\S+)#\d+/.exec(e.reason)?.[1] };
    case 'restored':
      if (travelling) return null;
      if (e.attempt > 1) return { level: 'warn', message: `job restarted ${e.checkpointId === null ? 'from the beginning (no checkpoint yet)' : `from checkpoint ${e.checkpointId}`} (attempt ${e.attempt})` };
      return e.checkpointId === null ? null : { level: 'info', message: `resumed from checkpoint ${e.checkpointId} (${records} records read)` };
    case 'failed':
      return { level: 'error', message: `job failed for good: ${e.reason}` };
    default:
      return null;
  }
}

/** The log line of a live feed's change of state (the node shows the state itself). */
export function feedLine(node: string, s: FeedStatus): EventLine | null {
  switch (s.phase) {
    case 'live':
      return { level: 'info', message: `live feed ${node} connected`, node };
    case 'reconnecting':
      return { level: 'warn', message: `live feed ${node}: ${s.reason ?? 'connection ended'}; reconnecting in ${((s.retryInMs ?? 0) / 1000).toFixed(1)} s (attempt ${s.attempt})`, node };
    case 'closed':
      return { level: s.reason === 'the run was stopped' ? 'info' : 'warn', message: `live feed ${node} closed: ${s.reason ?? ''}`, node };
    default:
      return null;
  }
}
