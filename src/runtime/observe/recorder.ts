import type { Element, Row, RowKind } from '../../core/types.ts';
import type { ClusterTap, LocalCluster } from '../localCluster.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import { EdgeRecorder } from './edgeRecorder.ts';
import { BreakpointSet } from './breakpoints.ts';
import { Ring } from './ring.ts';
import { TraceLog } from './traceLog.ts';
import { isObservable } from './stateSource.ts';
import type { JoinObservation, SourceTimeSeries, TraceEntry } from './types.ts';

const TRACE_ENTRIES = 50;
const MAX_HOPS = 32;
const MAX_EMITTED_PER_HOP = 8;
const SOURCE_POINTS = 200;
const RECENT_MATCHES = 30;
const RECENT_LATE = 30;
const PUSH_CHANGES = 200;

type Point = SourceTimeSeries['points'][number];

/**
 * The tap the observer installs on the cluster: it sees batches on channels and what each
 * subtask emits. Everything it keeps is bounded; per-record work happens only for records it
 * traces, nodes under a breakpoint, and the join the UI looks at.
 */
export class Recorder implements ClusterTap {
  readonly edges: EdgeRecorder[];
  readonly sourcePoints = new Map<string, Ring<Point>>();
  private readonly sourceWm = new Map<string, number>();
  readonly traces = new Ring<TraceEntry>(TRACE_ENTRIES);
  private readonly traced = new WeakMap<Element, TraceEntry>();
  private seq = 0;
  private sourceRecords = 0;
  private readonly traceLog = new TraceLog();
  /** Before this step traces are counted but not made: a replay to a point where none of them is shown. */
  quietUntil = 0;
  /** Trace 1 in `traceEvery` source records; 1 traces every record (step mode). */
  traceEvery = 100;
  /** The join node whose every record is processed one by one, for its recent matches. */
  detailNode: string | null = null;
  readonly recentMatches = new Ring<JoinObservation['recentMatches'][number]>(RECENT_MATCHES);
  readonly recentLate = new Map<string, Ring<Row>>();
  readonly breakpoints = new BreakpointSet();
  private pushSink: string | null = null;
  readonly pushChanges = new Ring<{ kind: RowKind; row: Row; at: number }>(PUSH_CHANGES);

  /** Subtasks whose backend records write times for the State tab (see `watch`). */
  private readonly watched = new WeakSet<SubtaskRunner>();

  /**
   * `rateNow`: the clock edge rates are counted on. The designer passes wall time, so an edge's
   * records per second mean what the run status and the operators' in/out per second mean;
   * by default the job's own clock (one millisecond per step).
   */
  constructor(
    private readonly cluster: LocalCluster,
    readonly rateNow: () => number = () => cluster.clock.now(),
  ) {
    this.edges = cluster.plan.edges.map(() => new EdgeRecorder());
  }

  /** Starts (or keeps) a push subscription on `sink`; a new sink starts an empty changelog. */
  subscribe(sink: string | null): void {
    if (sink === this.pushSink) return;
    this.pushSink = sink;
    this.pushChanges.clear();
  }

  /** Column-wise states record when each key was written only while observed: from the first batch the tap sees. */
  private watch(runner: SubtaskRunner): void {
    this.watched.add(runner);
    const state = runner.task?.state;
    if (state && isObservable(state)) state.watchWrites?.();
  }

  sent(edge: number, _from: number, _to: number, els: readonly Element[]): void {
    const now = this.cluster.clock.now();
    this.edges[edge].record(els, this.rateNow());
    if (this.pushSink !== null && this.cluster.plan.edges[edge].to.node === this.pushSink) {
      for (const e of els) this.pushChanges.push({ kind: e.kind, row: e.row, at: now });
    }
  }

  pick(runner: SubtaskRunner, _port: string, els: readonly Element[]): 'all' | number[] | null {
    if (!this.watched.has(runner)) this.watch(runner);
    const node = runner.node.id;
    if (this.breakpoints.armed(node)) this.breakpoints.check(node, els);
    if (node === this.detailNode) return 'all';
    let picked: number[] | null = null;
    for (let i = 0; i < els.length; i++) {
      const entry = this.traced.get(els[i]);
      if (entry && this.shown(entry)) (picked ??= []).push(i);
    }
    return picked;
  }

  /**
   * The trace list shows the newest TRACE_ENTRIES traces (by seq) and only ever moves on: an older
   * trace is never shown again, so its records need not be followed one by one any further.
   */
  private shown(entry: TraceEntry): boolean {
    return entry.seq > this.seq - TRACE_ENTRIES;
  }

  processed(runner: SubtaskRunner, port: string, el: Element, out: ReadonlyMap<string, readonly Element[]> | null, stateChanged: boolean): void {
    const entry = this.traced.get(el);
    if (entry && entry.hops.length < MAX_HOPS && this.shown(entry)) {
      const emitted: TraceEntry['hops'][number]['emitted'] = [];
      for (const [p, els] of out ?? []) {
        for (const e of els) {
          this.traced.set(e, entry);
          if (emitted.length < MAX_EMITTED_PER_HOP) emitted.push({ port: p, kind: e.kind, row: e.row });
        }
      }
      entry.hops.push({ node: runner.node.id, subtask: runner.index, emitted, stateChanged });
    }
    if (runner.node.id === this.detailNode && out) {
      for (const e of out.get('out') ?? []) {
        this.recentMatches.push({ left: port === 'left' ? el.row : null, right: port === 'right' ? el.row : null, out: e.row, kind: e.kind });
      }
    }
  }

  output(runner: SubtaskRunner, out: ReadonlyMap<string, readonly Element[]>): void {
    if (runner.source) return this.sourceOutput(runner, out.get('out') ?? []);
    const late = out.get('late');
    if (late && runner.node.kind === 'window') {
      let ring = this.recentLate.get(runner.node.id);
      if (!ring) this.recentLate.set(runner.node.id, (ring = new Ring(RECENT_LATE)));
      for (const e of late) ring.push(e.row);
    }
  }

  private sourceOutput(runner: SubtaskRunner, els: readonly Element[]): void {
    const node = runner.node.id;
    if (this.breakpoints.armed(node)) this.breakpoints.check(node, els);
    let points = this.sourcePoints.get(node);
    if (!points) this.sourcePoints.set(node, (points = new Ring(SOURCE_POINTS)));
    // Lateness is judged against the watermark the source had emitted before this read.
    const wm = this.sourceWm.get(runner.id) ?? -Infinity;
    const now = this.cluster.clock.now();
    // Only the newest TRACE_ENTRIES traces are ever shown: a longer read would make the others
    // only to drop them (they still count, so every trace keeps its seq).
    const step = this.cluster.stepCount();
    const quiet = step < this.quietUntil;
    let traceable = 0;
    if (els.length > TRACE_ENTRIES) for (let i = 0, n = this.sourceRecords; i < els.length; i++, n++) if (n % this.traceEvery === 0) traceable++;
    const watermark = Number.isFinite(wm) ? wm : null;
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      if (el.ts !== null) points.push({ processingTime: now, eventTime: el.ts, watermark, late: el.ts <= wm });
      if (this.sourceRecords++ % this.traceEvery === 0) {
        ++this.seq;
        if (quiet || traceable-- > TRACE_ENTRIES) continue;
        const entry: TraceEntry = { seq: this.seq, source: node, row: el.row, hops: [] };
        this.traced.set(el, entry);
        this.traces.push(entry);
      }
    }
    this.traceLog.note(step, this.seq);
    this.sourceWm.set(runner.id, Math.max(wm, runner.watermark()));
  }

  /** The first step a replay of this run to step `to` has to make traces in (see TraceLog). */
  traceStartFor(to: number): number {
    return this.traceLog.startFor(to, TRACE_ENTRIES);
  }
}
