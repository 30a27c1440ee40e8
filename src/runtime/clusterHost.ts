import type { Clock } from '../core/clock.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import type { ChannelMessage } from './messages.ts';
import type { RunnerHost } from './runnerHost.ts';
import type { JobMaster } from './jobMaster.ts';
import type { RunHistory } from './runHistory.ts';
import type { ClusterSubtasks } from './clusterSubtasks.ts';
import type { SnapshotWrites } from './snapshotWrites.ts';
import type { SourceHold } from './clusterStepping.ts';
import type { ClusterEvent, ClusterOptions, ClusterTap } from './clusterTypes.ts';

/** What the in-process host reaches of its cluster; the functions read what changes between attempts. */
export interface HostWiring {
  plan: JobPlan;
  clock: Clock;
  /** Read as the cluster was given them: `channelCapacity` (credit) and `onDeadLetter`. */
  opts: Pick<ClusterOptions, 'channelCapacity' | 'onDeadLetter'>;
  deployed: ClusterSubtasks;
  hold: SourceHold;
  history: RunHistory;
  writes: SnapshotWrites;
  master: JobMaster;
  /** Per edge: whether a source sends on it. */
  fromSource: readonly boolean[];
  /** The attempt now running. */
  attempt(): number;
  coordinator(): CheckpointCoordinator;
  listener(): ((e: ClusterEvent) => void) | null;
  tap(): ClusterTap | null;
}

/**
 * The RunnerHost of one attempt of an in-process run: channels are the target runners' input
 * queues (credit: fewer than the channel capacity queued), snapshots go to the cluster's snapshot writes,
 * declines to the coordinator, committed output to the job master. Whatever a runner of an
 * older (killed) attempt still does is dropped here, so nothing it sends or publishes counts.
 * Every send is also what the observatory, the tap, stepping and the run history see.
 */
export function inProcessHost(w: HostWiring, attempt: number): RunnerHost {
  const capacity = w.opts.channelCapacity ?? 8;
  return {
    clock: w.clock,
    hasCredit: (edge, from, to) => {
      const r = w.deployed.target(edge, to);
      return r.queued(r.channelIndex(edge, from)) < capacity;
    },
    send: (edge, from, to, msg: ChannelMessage) => {
      if (attempt !== w.attempt()) return;
      const r = w.deployed.target(edge, to);
      r.enqueue(r.channelIndex(edge, from), msg);
      const listener = w.listener();
      if (listener) listener(messageEvent(w.plan, edge, from, to, msg));
      const tap = w.tap();
      if (tap && msg.t === 'batch') tap.sent(edge, from, to, msg.els);
      if (w.hold.sent && w.fromSource[edge]) w.hold.count(msg);
      if (msg.t === 'barrier') w.history.mark('barrier');
      else if (w.fromSource[edge]) w.history.mark(msg.t === 'batch' ? 'record' : 'watermark');
    },
    snapshotTaken: (id, snap, timing, keyedWrite) => {
      if (attempt !== w.attempt()) return;
      w.writes.push({ attempt, id, snap, timing, takenAt: w.clock.now(), keyedWrite });
      w.listener()?.({ type: 'snapshot', subtask: snap.subtask, checkpointId: id, ...timing });
    },
    declined: (id, subtask, reason) => {
      if (attempt === w.attempt()) void w.coordinator().decline(id, subtask, reason);
    },
    publish: (sinkId, commits) => {
      if (attempt === w.attempt()) w.master.publish(sinkId, commits);
    },
    publishDeadLetters: (epochs) => {
      if (attempt === w.attempt()) w.master.publishDeadLetters(epochs);
    },
    publishFinal: (sinkId, els) => {
      if (attempt === w.attempt()) w.master.output.final(sinkId, els);
    },
    deadLetter: (d) => {
      if (attempt !== w.attempt()) return false;
      w.opts.onDeadLetter?.(d);
      return true;
    },
  };
}

/** A channel message as the observatory's event stream reports it. */
function messageEvent(plan: JobPlan, edge: number, from: number, to: number, msg: ChannelMessage): ClusterEvent {
  const e = plan.edges[edge];
  return {
    type: 'message',
    edge: e.id,
    from: `${e.from.node}#${from}`,
    to: `${e.to.node}#${to}`,
    kind: msg.t,
    records: msg.t === 'batch' ? msg.els.length : undefined,
    watermark: msg.t === 'wm' ? msg.wm : undefined,
    checkpointId: msg.t === 'barrier' ? msg.id : undefined,
  };
}
