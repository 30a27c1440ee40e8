import type { DeadLetter, Element, Key } from '../core/types.ts';
import { MIN_WATERMARK } from '../core/types.ts';
import type { KeyedCalls, Operator, OperatorContext, OperatorDefinition } from './operator.ts';
import { RefusedCall } from './operator.ts';
import type { KeySelector } from '../core/keys.ts';
import { keySelector } from '../core/keys.ts';
import { TimerService } from './time/timers.ts';
import type { Timer } from './time/timers.ts';
import type { Clock } from '../core/clock.ts';
import type { Rng } from '../core/rng.ts';
import type { KeyedStateBackend, KeyedStateSnapshot, StateMetrics } from '../state/backend.ts';
import { OperatorStateStore } from '../state/operatorState.ts';
import type { OperatorStateSnapshot } from '../state/operatorState.ts';
import type { PlanNode } from '../pipeline/plan.ts';
import { forwardsBatches } from './operators/keyBy.ts';
import { creatingNode, isCodeLimitError } from './codeHost.ts';
import type { CodeLimitError } from './codeHost.ts';
import { CODE_BATCH, atElement } from './operators/codeBatches.ts';
import type { Origins } from './origins.ts';

export interface NodeTaskSnapshot {
  keyed: KeyedStateSnapshot;
  operator: OperatorStateSnapshot;
  timers: Timer[];
  watermark: number;
  counters: Record<string, number>;
}

export interface NodeMetrics {
  recordsIn: number;
  recordsOut: number;
  watermark: number;
  counters: Record<string, number>;
  deadLetters: number;
  timers: number;
}

/**
 * One operator instance with everything it touches: key context, state, timers,
 * output buffers. A SubtaskRunner drives it; it never calls itself concurrently.
 */
export class NodeTask {
  readonly operator: Operator;
  readonly timers = new TimerService();
  readonly operatorState = new OperatorStateStore();
  private readonly selectors: Record<string, KeySelector | null> = {};
  private outputs = new Map<string, Element[]>();
  /** The buffer `emit` used last: operators emit to one port in long runs, so this skips a map lookup per row. */
  private lastPort: string | null = null;
  private lastBuf: Element[] = [];
  /** A pass-through operator: whole batches go to 'out' without a per-element call. */
  private readonly forwards: boolean;
  /** An input batch handed on as the 'out' buffer; never pushed into (other edges may hold it too). */
  private borrowed: Element[] | null = null;
  private watermark = MIN_WATERMARK;
  /** The highest watermark among the snapshots this task was restored from. */
  private restoredWatermark = MIN_WATERMARK;
  private eventTime = MIN_WATERMARK;
  /** The source line of the element being processed (Element.at), for dead letters that do not name their element. */
  private currentAt: number | undefined = undefined;
  readonly counters: Record<string, number> = {};
  recordsIn = 0;
  recordsOut = 0;

  constructor(
    readonly node: PlanNode,
    def: OperatorDefinition,
    readonly state: KeyedStateBackend,
    private readonly clock: Clock,
    rng: Rng,
    private readonly sinkDeadLetter: (d: DeadLetter) => void,
    /** Present when records carry their source line: dead letters and broken limits then name it. */
    private readonly origins: Origins | null = null,
  ) {
    for (const port of node.spec.inputs.map((p) => p.name)) {
      const fields = def.keyFields?.(node.params, port, node.inputs) ?? null;
      this.selectors[port] = fields ? keySelector(fields) : null;
    }
    const key = () => this.state.currentKey();
    const ctx: OperatorContext = {
      nodeId: node.id,
      emit: (el, port = 'out') => {
        if (port === this.lastPort) {
          this.lastBuf.push(el);
          return;
        }
        let buf = this.outputs.get(port);
        if (!buf) this.outputs.set(port, (buf = []));
        else if (buf === this.borrowed) {
          this.outputs.set(port, (buf = buf.slice()));
          this.borrowed = null;
        }
        this.lastPort = port;
        this.lastBuf = buf;
        buf.push(el);
      },
      state,
      operatorState: this.operatorState,
      timers: {
        registerEventTimeTimer: (ts, namespace = null) => this.timers.register({ domain: 'event', key: key(), ts, namespace }),
        deleteEventTimeTimer: (ts, namespace = null) => this.timers.delete({ domain: 'event', key: key(), ts, namespace }),
        hasEventTimeTimer: (ts, namespace = null) => this.timers.has({ domain: 'event', key: key(), ts, namespace }),
        registerProcessingTimeTimer: (ts, namespace = null) => this.timers.register({ domain: 'processing', key: key(), ts, namespace }),
        deleteProcessingTimeTimer: (ts, namespace = null) => this.timers.delete({ domain: 'processing', key: key(), ts, namespace }),
      },
      currentWatermark: () => this.watermark,
      highestWatermark: () => Math.max(this.watermark, this.restoredWatermark),
      currentProcessingTime: () => this.clock.now(),
      deadLetter: (reason, row, from) => this.deadLetter(reason, row, from ? from.at : this.currentAt),
      count: (m, d = 1) => this.count(m, d),
      rng,
      inputs: node.inputs,
      endlessInputs: node.endlessInputs ?? [],
    };
    this.operator = creatingNode(node.id, () => def.create({ ctx, params: node.params, inputs: node.inputs }));
    this.forwards = forwardsBatches.has(def as OperatorDefinition<never>);
  }

  open(): void {
    this.operator.open?.();
  }

  /** A bad record, with the source line it was read from when records carry one. */
  private deadLetter(reason: string, row: unknown, at: number | undefined): void {
    this.count('deadLetters');
    const o = this.origins?.where(at);
    this.sinkDeadLetter(o ? { nodeId: this.node.id, reason, row, line: o.line, source: o.source, ...(o.file !== undefined ? { file: o.file } : {}) } : { nodeId: this.node.id, reason, row });
  }

  /** A broken limit stops the job; its message names the source line of the record it stopped at. */
  private limitBroken(e: CodeLimitError, el?: Element): CodeLimitError {
    const from = e.element ?? el;
    if (e.located || !this.origins || !from) return e;
    return e.withOrigin(this.origins.sentence(from.at, this.node.id));
  }

  private count(metric: string, delta = 1): void {
    this.counters[metric] = (this.counters[metric] ?? 0) + delta;
  }

  /** Event time the state backend stamps on writes: the element's, or the watermark while timers fire. */
  currentEventTime(): number {
    return this.eventTime;
  }

  currentWatermark(): number {
    return this.watermark;
  }

  processBatch(port: string, els: readonly Element[]): void {
    if (this.forwards) return this.forwardBatch(els);
    const sel = this.selectors[port];
    const op = this.operator;
    this.recordsIn += els.length;
    if (op.processBatch && !sel) {
      this.eventTime = this.watermark;
      this.currentAt = undefined;
      try {
        return op.processBatch(els, port);
      } catch (e) {
        // Batch operators hand the whole batch to their code host before emitting anything, so a
        // batch that failed as a whole (a record that cannot even be serialized) emitted nothing:
        // retry record by record and dead-letter only the records that fail alone.
        if (isCodeLimitError(e)) throw this.limitBroken(e);
        for (const el of els) {
          try {
            op.processBatch([el], port);
          } catch (e1) {
            this.failedElement(el, e1);
          }
        }
        return;
      }
    }
    if (op.keyedCalls && sel && els.length > 1) return this.keyedCallBatch(op, op.keyedCalls, sel, els, port);
    if (op.processKeyGroup && sel && els.length > 1) return this.keyGroupBatch(op, op.processKeyGroup, sel, els, port);
    if (op.claimBatch && sel && els.length > 1) op.claimBatch(els, sel);
    for (const el of els) {
      this.eventTime = el.ts ?? this.watermark;
      this.currentAt = el.at;
      if (sel) this.state.setCurrentKey(sel(el.row));
      try {
        op.processElement(el, port);
      } catch (e) {
        this.failedElement(el, e);
      }
    }
  }

  /** A record the operator threw on is a dead letter; a broken limit stops the job. */
  private failedElement(el: Element, e: unknown): void {
    if (isCodeLimitError(e)) throw this.limitBroken(e, el);
    this.deadLetter(`processing failed: ${thrownReason(e)}`, el.row, el.at);
  }

  /**
   * Keyed code calls, up to CODE_BATCH records per crossing. Keys are told apart as the state
   * backend tells them apart (a Map's equality). When the code host cannot carry a key's state
   * from call to call, a chunk ends before its first repeated key.
   */
  private keyedCallBatch(op: Operator, calls: KeyedCalls, sel: KeySelector, els: readonly Element[], port: string): void {
    const keys = els.map((el) => sel(el.row));
    let from = 0;
    while (from < els.length) {
      const slots = new Map<Key, number>();
      const chunk: number[] = [];
      const requests: object[] = [];
      let i = from;
      for (; i < els.length && chunk.length < CODE_BATCH; i++) {
        const slot = slots.get(keys[i]);
        if (slot !== undefined && !calls.carry) break;
        this.enter(els[i], keys[i]);
        try {
          requests.push(calls.prepare(els[i], slot ?? slots.size, slot === undefined));
          if (slot === undefined) slots.set(keys[i], slots.size);
          chunk.push(i);
        } catch (e) {
          this.failedElement(els[i], e);
        }
      }
      from = i;
      if (chunk.length === 0) continue;
      let answers: readonly unknown[];
      try {
        answers = calls.run(requests);
      } catch (e) {
        // Nothing was applied yet: a chunk that failed as a whole (a record that cannot even be
        // serialized) is retried record by record, so only the records that fail alone are dead letters.
        if (isCodeLimitError(e)) throw this.limitBroken(atElement(e, chunk.map((at) => els[at])) as CodeLimitError);
        for (const at of chunk) {
          this.enter(els[at], keys[at]);
          try {
            op.processElement(els[at], port);
          } catch (e1) {
            this.failedElement(els[at], e1);
          }
        }
        continue;
      }
      for (let n = 0; n < chunk.length; n++) {
        const at = chunk[n];
        this.enter(els[at], keys[at]);
        try {
          calls.apply(els[at], answers[n]);
        } catch (e) {
          this.failedElement(els[at], e);
          // The later answers of this key were built on state the backend may not hold: run them again.
          if (calls.carry && !(e instanceof RefusedCall) && n + 1 < chunk.length) {
            from = chunk[n + 1];
            break;
          }
        }
      }
    }
  }

  /**
   * The batch's elements grouped by key (a Map: keys the backend tells apart stay apart, and
   * 0/-0 and NaN group as the backend holds them), each group handed over with its key context.
   */
  private keyGroupBatch(op: Operator, fold: NonNullable<Operator['processKeyGroup']>, sel: KeySelector, els: readonly Element[], port: string): void {
    const groups = new Map<Key, Element[]>();
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const key = sel(el.row);
      const g = groups.get(key);
      if (g) g.push(el);
      else groups.set(key, [el]);
    }
    groups.forEach((group, key) => {
      const last = group[group.length - 1];
      this.enter(last, key);
      try {
        fold.call(op, group, port);
      } catch (e) {
        this.failedElement(last, e);
      }
    });
  }

  private enter(el: Element, key: Key): void {
    this.eventTime = el.ts ?? this.watermark;
    this.currentAt = el.at;
    this.state.setCurrentKey(key);
  }

  /** Batches are never mutated after they are queued, so the input array itself can be the output. */
  private forwardBatch(els: readonly Element[]): void {
    this.recordsIn += els.length;
    if (els.length === 0) return;
    const buf = this.outputs.get('out');
    if (buf && buf !== this.borrowed) {
      for (let i = 0; i < els.length; i++) buf.push(els[i]);
      return;
    }
    const own = buf ? buf.concat(els) : (els as Element[]);
    this.outputs.set('out', own);
    this.borrowed = buf ? null : own;
    this.lastPort = null;
  }

  fireTimer(t: Timer): void {
    this.state.setCurrentKey(t.key);
    this.currentAt = undefined;
    this.eventTime = t.domain === 'event' ? t.ts : this.watermark;
    try {
      this.operator.onTimer?.(t);
    } catch (e) {
      this.count('deadLetters');
      this.sinkDeadLetter({ nodeId: this.node.id, reason: `timer at ${t.ts} failed: ${(e as Error).message}` });
    }
  }

  /** Moves the operator's watermark; the caller has already fired the due event-time timers. */
  advanceWatermark(wm: number): void {
    this.watermark = wm;
    this.currentAt = undefined;
    this.eventTime = wm;
    this.operator.onWatermark?.(wm);
  }

  setWatermark(wm: number): void {
    this.watermark = wm;
  }

  /** After restoring from the snapshots of several subtasks: resume from the lowest of their watermarks. */
  restoreWatermarks(wms: readonly number[]): void {
    this.watermark = Math.min(...wms);
    this.restoredWatermark = Math.max(...wms);
  }

  /** Every channel of `port` ended. */
  endPort(port: string): void {
    this.eventTime = this.watermark;
    this.currentAt = undefined;
    this.operator.endPort?.(port);
  }

  endInput(): void {
    this.currentAt = undefined;
    this.operator.endInput?.();
  }

  /** Takes what the operator emitted since the last drain, per port. */
  drain(): Map<string, Element[]> | null {
    if (this.outputs.size === 0) return null;
    const out = this.outputs;
    this.outputs = new Map();
    this.lastPort = null;
    this.borrowed = null;
    for (const els of out.values()) this.recordsOut += els.length;
    return out;
  }

  snapshot(): NodeTaskSnapshot {
    return {
      keyed: this.state.snapshot(),
      operator: this.operatorState.snapshot(),
      timers: this.timers.snapshot(),
      watermark: this.watermark,
      counters: { ...this.counters },
    };
  }

  restore(s: NodeTaskSnapshot): void {
    this.state.restore([s.keyed]);
    this.operatorState.restore([s.operator]);
    this.timers.restore(s.timers);
    this.watermark = s.watermark;
    this.restoredWatermark = s.watermark;
    for (const k of Object.keys(this.counters)) delete this.counters[k];
    Object.assign(this.counters, s.counters);
  }

  metrics(deadLetters: number): NodeMetrics {
    return {
      recordsIn: this.recordsIn,
      recordsOut: this.recordsOut,
      watermark: this.watermark,
      counters: { ...this.counters },
      deadLetters,
      timers: this.timers.count(),
    };
  }

  stateMetrics(): StateMetrics {
    return this.state.metrics();
  }
}

/** What a thrown value says, whatever was thrown (`throw undefined` included). */
export function thrownReason(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return `the record is nested too deeply, or an expression is too long, to process (${e.message}); flatten the record or split the expression`;
  if (e instanceof Error) return e.message || e.name;
  let text: string;
  try {
    text = typeof e === 'string' ? JSON.stringify(e) : String(e);
  } catch {
    text = Object.prototype.toString.call(e);
  }
  return `the code threw ${text}, which is not an Error (throw new Error("…") to give a reason)`;
}
