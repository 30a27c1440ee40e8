import { NodeTask } from '../engine/nodeTask.ts';
import type { NodeTaskSnapshot } from '../engine/nodeTask.ts';
import { operatorDefinition } from '../engine/registry.ts';
import type { OperatorDefinition } from '../engine/operator.ts';
import { ManualClock } from '../core/clock.ts';
import { seededRng } from '../core/rng.ts';
import type { DeadLetter, Element, Row, RowKind } from '../core/types.ts';
import { MIN_WATERMARK } from '../core/types.ts';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { KeyedStateBackend, StateTime } from '../state/backend.ts';
import { kindSpec } from '../pipeline/kinds/index.ts';
import type { StreamInfo } from '../core/streamInfo.ts';
import { unknownStream } from '../core/streamInfo.ts';
import type { PlanNode } from '../pipeline/plan.ts';

export interface HarnessOptions {
  /** What is known about each input port; defaults to an unknown append stream with event time in `ts`. */
  inputs?: Record<string, Partial<StreamInfo>>;
  backend?: (time: StateTime) => KeyedStateBackend;
  seed?: number;
  /** The operator to run instead of the registered one of `kind` (same kind spec): an alternative path of one kind. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  definition?: OperatorDefinition<any>;
  /** Input ports fed by a source that never ends (a live feed). */
  endlessInputs?: string[];
}

/**
 * Flink's operator test harness, for one operator kind: feed elements, watermarks and
 * processing time; read what it emitted per port; snapshot and restore into a fresh instance.
 */
export class OperatorHarness {
  readonly clock = new ManualClock(0);
  readonly task: NodeTask;
  readonly deadLetters: DeadLetter[] = [];
  private readonly outputs = new Map<string, Element[]>();
  private readonly portWatermarks = new Map<string, number>();

  constructor(
    readonly kind: string,
    readonly params: Record<string, unknown>,
    private readonly opts: HarnessOptions = {},
  ) {
    const spec = kindSpec(kind);
    if (!spec) throw new Error(`unknown kind ${kind}`);
    const inputs: Record<string, StreamInfo> = {};
    for (const p of spec.inputs) inputs[p.name] = { ...unknownStream(), eventTime: 'ts', ...(opts.inputs?.[p.name] ?? {}) };
    const inputLists = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, [v]]));
    const inferred = spec.infer({ nodeId: 'op', params, inputs, inputLists });
    if (inferred.problems?.length) throw new Error(`invalid params for ${kind}: ${inferred.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
    const node: PlanNode = { id: 'op', kind, label: kind, params, spec, inputs, outputs: inferred.outputs, parallelism: 1, isSource: false, isSink: spec.group === 'sinks', ...(opts.endlessInputs ? { endlessInputs: opts.endlessInputs } : {}) };
    let task: NodeTask | null = null;
    const time: StateTime = { processingTime: () => this.clock.now(), eventTime: () => task!.currentEventTime() };
    const backend = opts.backend?.(time) ?? new MemoryStateBackend(time);
    task = new NodeTask(node, opts.definition ?? operatorDefinition(kind), backend, this.clock, seededRng(opts.seed ?? 1), (d) => this.deadLetters.push(d));
    this.task = task;
    for (const p of spec.inputs) this.portWatermarks.set(p.name, MIN_WATERMARK);
    task.open();
  }

  private collect(): void {
    const out = this.task.drain();
    if (!out) return;
    for (const [port, els] of out) {
      let list = this.outputs.get(port);
      if (!list) this.outputs.set(port, (list = []));
      list.push(...els);
    }
  }

  processElement(row: Row, opts: { ts?: number | null; kind?: RowKind; port?: string } = {}): this {
    const ts = opts.ts === undefined ? (typeof row.ts === 'number' ? row.ts : null) : opts.ts;
    this.task.processBatch(opts.port ?? 'in', [{ kind: opts.kind ?? '+I', row, ts }]);
    this.collect();
    return this;
  }

  /** Hands the task all rows as one batch, as the runtime does with a channel's batch. */
  processBatch(rows: readonly Row[], opts: { port?: string } = {}): this {
    this.task.processBatch(opts.port ?? 'in', rows.map((row) => ({ kind: '+I' as const, row, ts: typeof row.ts === 'number' ? row.ts : null })));
    this.collect();
    return this;
  }

  /** Hands the task these elements (any kinds) as one batch. */
  processElements(els: readonly Element[], opts: { port?: string } = {}): this {
    this.task.processBatch(opts.port ?? 'in', els);
    this.collect();
    return this;
  }

  /** Sets one input's watermark; the operator moves to the minimum over its inputs, firing due timers. */
  processWatermark(wm: number, port?: string): this {
    if (port) this.portWatermarks.set(port, Math.max(this.portWatermarks.get(port) ?? MIN_WATERMARK, wm));
    else for (const p of this.portWatermarks.keys()) this.portWatermarks.set(p, Math.max(this.portWatermarks.get(p)!, wm));
    const combined = Math.min(...this.portWatermarks.values());
    if (combined <= this.task.currentWatermark()) return this;
    for (let t = this.task.timers.pollDue('event', combined); t; t = this.task.timers.pollDue('event', combined)) {
      this.task.setWatermark(Math.max(this.task.currentWatermark(), t.ts));
      this.task.fireTimer(t);
      this.collect();
    }
    this.task.advanceWatermark(combined);
    this.collect();
    return this;
  }

  setProcessingTime(t: number): this {
    this.clock.set(t);
    for (let x = this.task.timers.pollDue('processing', t); x; x = this.task.timers.pollDue('processing', t)) {
      this.task.fireTimer(x);
      this.collect();
    }
    return this;
  }

  /** Ends one input port (every channel of it), as the runtime does when its upstream finished. */
  endPort(port: string): this {
    this.task.endPort(port);
    this.collect();
    return this;
  }

  endInput(): this {
    this.task.endInput();
    this.collect();
    return this;
  }

  output(port = 'out'): Element[] {
    return this.outputs.get(port) ?? [];
  }

  /** Output rows as `+I {...}` strings, handy for exact assertions. */
  lines(port = 'out'): string[] {
    return this.output(port).map((e) => `${e.kind} ${JSON.stringify(e.row)}`);
  }

  clearOutput(): this {
    this.outputs.clear();
    return this;
  }

  snapshot(): NodeTaskSnapshot {
    return structuredClone(this.task.snapshot());
  }

  /** A fresh operator of the same kind and params, restored from `snap`. */
  restored(snap: NodeTaskSnapshot): OperatorHarness {
    const h = new OperatorHarness(this.kind, this.params, this.opts);
    h.task.restore(structuredClone(snap));
    h.clock.set(this.clock.now());
    for (const p of h.portWatermarks.keys()) h.portWatermarks.set(p, snap.watermark);
    return h;
  }

  /** Sink harnesses: the materialized table. */
  rows(): Row[] {
    return (this.task.operator as unknown as { rows(): Row[] }).rows();
  }
}
