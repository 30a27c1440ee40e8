import type { DeadLetter, Element, Key, Row } from '../core/types.ts';
import type { KeyFields, KeySelector } from '../core/keys.ts';
import type { KeyedStateBackend } from '../state/backend.ts';
import type { OperatorStateStore } from '../state/operatorState.ts';
import type { Timer } from './time/timers.ts';
import type { Rng } from '../core/rng.ts';
import type { StreamInfo } from '../core/streamInfo.ts';

/** What an operator may ask of the runtime. Everything time- or random-related is injected here. */
export interface OperatorContext {
  readonly nodeId: string;
  /** Sends an element to an output port (default `out`). */
  emit(el: Element, port?: string): void;
  readonly state: KeyedStateBackend;
  readonly operatorState: OperatorStateStore;
  readonly timers: {
    registerEventTimeTimer(ts: number, namespace?: string | number | null): void;
    deleteEventTimeTimer(ts: number, namespace?: string | number | null): void;
    /** Whether the current key has this event-time timer set and not yet fired. */
    hasEventTimeTimer(ts: number, namespace?: string | number | null): boolean;
    registerProcessingTimeTimer(ts: number, namespace?: string | number | null): void;
    deleteProcessingTimeTimer(ts: number, namespace?: string | number | null): void;
  };
  currentWatermark(): number;
  /**
   * The highest watermark this task's state has been at: above currentWatermark() only after a
   * restore that merged subtasks, which resumes from the lowest of their watermarks.
   */
  highestWatermark(): number;
  currentProcessingTime(): number;
  /**
   * A bad record is kept and counted, never dropped silently. `from`: the element it concerns,
   * when not the one being processed (a batch's), so the dead letter names its source line.
   */
  deadLetter(reason: string, row?: unknown, from?: Element): void;
  /** Adds to a named counter shown in metrics (late records, evictions, ...). */
  count(metric: string, delta?: number): void;
  readonly rng: Rng;
  /** Stream facts about each input port, inferred at compile time. */
  readonly inputs: Record<string, StreamInfo>;
  /** Input ports that never end (a live feed feeds them): waiting for their end would wait forever. */
  readonly endlessInputs: readonly string[];
}

/**
 * One operator instance. The runtime never calls it concurrently, and it sets the current
 * key on the state backend before `processElement` and `onTimer` (Flink's key context).
 */
export interface Operator {
  open?(): void;
  processElement(el: Element, port: string): void;
  /**
   * A whole batch at once, for operators whose work crosses to a code host: one crossing per
   * batch, not per record. Only for operators without keyed state (no key context is set).
   */
  processBatch?(els: readonly Element[], port: string): void;
  /**
   * For keyed operators whose work crosses to a code host (process functions): a batch in as few
   * crossings as its keys allow. The task calls `prepare` for each element with its key context
   * set, answers the requests with one `run`, then calls `apply` for each element with its key
   * context set again. Each call must see the state every earlier call of its key left: with
   * `carry`, the code host carries it from call to call within one crossing (only the first call
   * of a key brings the key's state); without, the task ends a chunk before a key comes again.
   */
  keyedCalls?: KeyedCalls;
  /**
   * Called with a keyed batch before the task's loop over it (which sets each key and calls
   * `processElement` as always): state work that only claims, in the batch's order, what the loop
   * would claim anyway, so the memory accesses of many records overlap instead of each waiting
   * for the last (a GROUP BY over an append-only input claims each record's group slot).
   */
  claimBatch?(els: readonly Element[], keyOf: KeySelector): void;
  /**
   * Mini-batch (Flink's MiniBatch): a keyed batch handed over key by key instead of record by
   * record. Called once per distinct key of the batch, in the order the keys first appear, with
   * that key's elements in their order and its key context set (event time: its last element's).
   * The operator reads and writes each key's state once per batch and may emit one change per key
   * where it would emit one per record. `processElement` still takes single records (timers,
   * traced runs that step record by record).
   */
  processKeyGroup?(els: readonly Element[], port: string): void;
  /** Called once timers up to `watermark` have fired and before the watermark moves on. */
  onWatermark?(watermark: number): void;
  onTimer?(timer: Timer): void;
  /**
   * Every channel of one input port ended (Flink's BoundedMultiInput.endInput(inputId)). Called
   * before `endInput` when that port ends last; may come again for the same port after a restore.
   */
  endPort?(port: string): void;
  /** All inputs ended; finite runs flush here. */
  endInput?(): void;
  /** A readable view of internal structures for the observatory (window panes, join buffers). */
  inspect?(): unknown;
  /**
   * The table of result rows this operator keeps by its key, for a view chained behind it to read
   * instead of keeping a copy (Materialize's shared arrangement). Null when this instance's state
   * layout cannot serve it; the runtime then leaves the view unchained.
   */
  arrangement?(): Arrangement | null;
  /** Nothing downstream reads this operator's changelog (a chained view that publishes nothing): emit none. */
  dropChangelog?(): void;
}

/** Result rows by key, as the operator holds them now; rows are built on each read. */
export interface Arrangement {
  size(): number;
  rows(): Row[];
  /** The row of one key (the key as the operator's state is keyed). */
  lookup(key: Key): Row | undefined;
}

export interface KeyedCalls {
  /** The code host carries a key's state between the calls of one crossing (see keyedCalls). */
  carry: boolean;
  /** `slot` numbers the keys of one crossing; `first` is the first call of its key in it. */
  prepare(el: Element, slot: number, first: boolean): object;
  run(requests: readonly object[]): readonly unknown[];
  /**
   * Applies one answer; throws when the record is a dead letter. A throw that is not a
   * RefusedCall may have left the key's state other than the code host carried it on with.
   */
  apply(el: Element, answer: unknown): void;
}

/** A call's answer refused whole, before any effect (the code threw and its realm dropped its writes). */
export class RefusedCall extends Error {}

export interface OperatorFactoryArgs<P> {
  ctx: OperatorContext;
  params: P;
  /**
   * What the compiler inferred for each input port. Absent when an operator is built bare (a
   * harness); operators then assume the general case (updating input).
   */
  inputs?: Record<string, StreamInfo>;
}

/** Every input of the operator carries only +I rows (by inference); false when unknown. */
export const appendOnlyInput = (inputs: Record<string, StreamInfo> | undefined): boolean =>
  inputs !== undefined && Object.keys(inputs).length > 0 && Object.values(inputs).every((s) => s.changelog === 'append');

/** Ties a `kind` to its engine implementation. The spec (ports, params, docs) lives in pipeline/kinds. */
export interface OperatorDefinition<P = Record<string, unknown>> {
  kind: string;
  /**
   * What keys each input port (fields, or the whole row), or null where the input is not keyed.
   * The runtime hashes a keyed input by it and restores keyed state by it, so an operator's state
   * keys must be exactly these.
   */
  keyFields?(params: P, port: string, inputs: Record<string, StreamInfo>): KeyFields | null;
  create(args: OperatorFactoryArgs<P>): Operator;
}

/** The key selectors the runtime uses to set the key context and to partition keyed edges. */
export type InputKeySelectors = Record<string, KeySelector | null>;

export type { Element, Key, Row, DeadLetter };
