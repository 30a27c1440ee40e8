/**
 * ClusterObserver: turns a running LocalCluster into ObservationFrames.
 *
 * Constructor (stable, for the worker session):
 *   const obs = new ClusterObserver(cluster, opts?)   // opts: ObserverOptions below
 *   cluster.onEvent((e) => obs.onEvent(e));           // the session attaches events itself
 * The constructor installs the cluster's tap (cluster.setTap); `detach()` removes it.
 * `obs.traceEvery = 1` traces every source record (step mode); the default traces 1 in 100.
 */
import type { LocalCluster, ClusterEvent } from '../localCluster.ts';
import type { CheckpointStore } from '../../checkpoint/types.ts';
import type { KeyedHandleReader } from '../../checkpoint/savepoint.ts';
import type { Row } from '../../core/types.ts';
import type { Breakpoint, ClusterObserverApi, ObservationFrame, ObserveRequest, QueryObservation, StateDiff } from './types.ts';
import { Recorder } from './recorder.ts';
import { observeEdges } from './edges.ts';
import { NodeObserver } from './nodes.ts';
import type { SnapshotMark } from './nodes.ts';
import { StateTableObserver } from './stateTable.ts';
import { JOIN_KINDS, observeJoin } from './join.ts';
import { observeWindow } from './windows.ts';
import { observeQuery } from './query.ts';
import { diffCheckpoints } from './diff.ts';

export interface ObserverOptions {
  /** Where diff() reads retained checkpoints; defaults to the cluster's store. */
  store?: CheckpointStore;
  jobId?: string;
  /** Trace 1 in `traceEvery` source records (1 = every record, for step mode). Default 100. */
  traceEvery?: number;
  /** Reads durable-backend chunk handles for diff(); without it diff() of such checkpoints says so. */
  readChunks?: KeyedHandleReader;
  /** The clock edge rates are counted on (default: the job's; the designer: wall time). */
  rateClock?: () => number;
}

/** Checkpoint history entries sent per frame (the newest). */
const CHECKPOINTS_IN_FRAME = 50;

export class ClusterObserver implements ClusterObserverApi {
  private readonly rec: Recorder;
  private readonly snapshots = new Map<string, SnapshotMark>();
  private readonly nodes: NodeObserver;
  private readonly stateTable = new StateTableObserver();

  constructor(
    readonly cluster: LocalCluster,
    readonly opts: ObserverOptions = {},
  ) {
    this.rec = new Recorder(cluster, opts.rateClock);
    this.rec.traceEvery = Math.max(1, Math.floor(opts.traceEvery ?? 100));
    this.nodes = new NodeObserver(cluster, this.snapshots);
    cluster.setTap(this.rec);
  }

  get traceEvery(): number {
    return this.rec.traceEvery;
  }
  set traceEvery(n: number) {
    this.rec.traceEvery = Math.max(1, Math.floor(n));
  }

  /**
   * For a replay of this run to step `to` in a fresh job: the step from which on it has to make
   * traces. Traces made before it would all have left the trace list by `to`.
   */
  traceStartFor(to: number): number {
    return this.rec.traceStartFor(to);
  }

  /** A replay: traces are counted but not made before step `step` (see traceStartFor). */
  traceFrom(step: number): void {
    this.rec.quietUntil = step;
  }

  /** The state table's `changed` marks of `node` (one subtask, or all) count from now, as if a frame had shown it (see StateTableObserver.markSeen). */
  markSeen(node: string, subtask: number | null): void {
    this.stateTable.markSeen(this.cluster.subtasksOf(node).filter((r) => subtask === null || r.index === subtask));
  }

  /** Removes the tap: the cluster runs at full speed again. */
  detach(): void {
    this.cluster.setTap(null);
  }

  onEvent(e: ClusterEvent): void {
    if (e.type === 'snapshot') {
      this.snapshots.set(e.subtask, { checkpointId: e.checkpointId, syncMs: e.syncMs, asyncMs: null, at: this.cluster.clock.now() });
    } else if (e.type === 'checkpoint' && e.status === 'completed') {
      const rec = this.cluster.checkpointHistory().find((r) => r.checkpointId === e.checkpointId);
      for (const s of rec?.stats ?? []) {
        const mark = this.snapshots.get(s.subtask);
        if (mark && mark.checkpointId === e.checkpointId) mark.asyncMs = s.asyncMs;
      }
    }
  }

  frame(req: ObserveRequest): ObservationFrame {
    const c = this.cluster;
    const runners = req.node ? c.subtasksOf(req.node) : [];
    const kind = runners[0]?.node.kind;
    this.rec.detailNode = req.node && kind && JOIN_KINDS.has(kind) ? req.node : null;
    const stateful = runners.length > 0 && !runners[0].source;
    return {
      at: c.clock.now(),
      edges: observeEdges(c, this.rec),
      nodes: this.nodes.observe(),
      state: stateful ? this.stateTable.observe(req.node!, runners, req) : null,
      join: stateful ? observeJoin(req.node!, runners, req.subtask, this.rec) : null,
      window: stateful ? observeWindow(req.node!, runners, req.subtask, this.rec) : null,
      sources: shows(req, 'windows') ? [...this.rec.sourcePoints].map(([node, ring]) => ({ node, points: ring.toArray() })) : [],
      checkpoints: c.checkpointHistory().slice(-CHECKPOINTS_IN_FRAME),
      inFlightCheckpoint: c.inFlightCheckpoint(),
      trace: shows(req, 'trace') ? this.rec.traces.toArray() : [],
      query: this.query(req.query),
      breakpointHit: this.rec.breakpoints.peek(),
    };
  }

  /** Without a query the push subscription ends, so its changelog stops growing. */
  private query(q: ObserveRequest['query']): QueryObservation | null {
    if (!q) {
      this.rec.subscribe(null);
      return null;
    }
    try {
      return observeQuery(this.cluster, this.rec, q);
    } catch (e) {
      return { sink: q.sink, rows: [], changes: [], error: (e as Error).message };
    }
  }

  diff(fromCheckpoint: number, toCheckpoint: number): Promise<StateDiff> {
    return diffCheckpoints(this.opts.store ?? this.cluster.checkpointStore(), this.opts.jobId ?? this.cluster.job(), fromCheckpoint, toCheckpoint, this.opts.readChunks);
  }

  setBreakpoints(bps: Breakpoint[]): { node: string; message: string }[] {
    return this.rec.breakpoints.set(bps, new Set(this.cluster.plan.nodes.map((n) => n.id)));
  }

  hit(): { node: string; row: Row } | null {
    return this.rec.breakpoints.take();
  }
}

/** Whether the frame must carry a tab's data: always when the request names no panel. */
const shows = (req: ObserveRequest, tab: string): boolean => req.panel === undefined || req.panel === null || req.panel === tab;
