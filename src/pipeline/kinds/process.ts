import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { codeParam, inputOf, schemaParam } from './common.ts';
import { byUserCode } from '../lineage/derive.ts';

export interface ProcessParams {
  /** A JS/TS object literal `({ state, processElement(row, ctx), onTimer?(timestamp, ctx) })`. */
  code: string;
  outputSchema?: Record<string, FieldType>;
}

/**
 * Declarations of the process-function API for the code editor (Monaco `addExtraLib`).
 * The editor gets typed completion, `ctx.state.<name>` included, by checking the user's
 * code wrapped as `defineProcessFunction(<code>)`; see PROCESS_TYPECHECK_WRAPPER.
 */
export const PROCESS_CONTEXT_DTS = `/** A record: a plain JSON object. */
type Row = Record<string, any>;
type MapKey = string | number | boolean;
type RowKind = '+I' | '-U' | '+U' | '-D';

/** Time to live: an entry not written (or, with onReadAndWrite, not read) for ttlMs is gone. */
interface StateTtl {
  ttlMs?: number;
  /** When the TTL clock restarts (default onCreateAndWrite). */
  ttlUpdate?: 'onCreateAndWrite' | 'onReadAndWrite';
  /** Clock the TTL is measured in (default processing time, as in Flink). */
  ttlTime?: 'processing' | 'event';
}
interface ValueStateDeclaration extends StateTtl { kind: 'value' }
interface ListStateDeclaration extends StateTtl { kind: 'list' }
interface MapStateDeclaration extends StateTtl { kind: 'map' }
interface ReducingStateDeclaration<T = any> extends StateTtl { kind: 'reducing'; reduce(a: T, b: T): T }
interface AggregatingStateDeclaration<IN = any, ACC = any, OUT = any> extends StateTtl {
  kind: 'aggregating';
  create(): ACC;
  add(acc: ACC, value: IN): ACC;
  get(acc: ACC): OUT;
}
type StateDeclaration = ValueStateDeclaration | ListStateDeclaration | MapStateDeclaration | ReducingStateDeclaration | AggregatingStateDeclaration;

/** State of the current key. Values are copied at checkpoints: after mutating an object, call update() again. */
interface ValueState<T = any> { value(): T | undefined; update(value: T): void; clear(): void }
interface ListState<T = any> { get(): T[]; add(value: T): void; update(values: T[]): void; clear(): void }
interface MapState<K extends MapKey = MapKey, V = any> {
  get(key: K): V | undefined;
  put(key: K, value: V): void;
  remove(key: K): void;
  contains(key: K): boolean;
  entries(): [K, V][];
  keys(): K[];
  size(): number;
  isEmpty(): boolean;
  clear(): void;
}
interface ReducingState<T = any> { get(): T | undefined; add(value: T): void; clear(): void }
interface AggregatingState<IN = any, OUT = any> { get(): OUT | undefined; add(value: IN): void; clear(): void }

type StateHandle<D> = D extends { kind: 'value' } ? ValueState
  : D extends { kind: 'list' } ? ListState
  : D extends { kind: 'map' } ? MapState
  : D extends { kind: 'reducing' } ? ReducingState
  : D extends { kind: 'aggregating' } ? AggregatingState
  : never;
type StateHandles<S> = { readonly [K in keyof S]: StateHandle<S[K]> };

/** Timers are per key; registering the same time twice keeps one timer. */
interface TimerService {
  /** Fires onTimer once the watermark reaches timestamp. */
  registerEventTimeTimer(timestamp: number): void;
  /** Fires onTimer once processing time reaches timestamp. */
  registerProcessingTimeTimer(timestamp: number): void;
  deleteEventTimeTimer(timestamp: number): void;
  deleteProcessingTimeTimer(timestamp: number): void;
}

interface ProcessContext<S = Record<string, StateDeclaration>> {
  /** The key of the current record (one field's value, or a JSON array text for several). */
  readonly key: string | number | boolean | null;
  /** Event time of the record, or null when the stream has none. */
  readonly timestamp: number | null;
  /** Changelog kind of the record; emitted rows are always inserts (+I). */
  readonly kind: RowKind;
  currentWatermark(): number;
  currentProcessingTime(): number;
  readonly state: StateHandles<S>;
  readonly timerService: TimerService;
  /** Emits a row as +I with the record's event time. */
  emit(row: Row): void;
}

interface OnTimerContext<S = Record<string, StateDeclaration>> extends Omit<ProcessContext<S>, 'timestamp' | 'kind' | 'emit'> {
  /** The time the timer was set for. */
  readonly timestamp: number;
  readonly timeDomain: 'event' | 'processing';
  /** Emits a row as +I; its event time is the timer's for event-time timers and none for processing-time timers. */
  emit(row: Row): void;
}

interface ProcessFunction<S extends Record<string, StateDeclaration> = Record<string, StateDeclaration>> {
  /** Keyed state, declared by name. */
  state?: S;
  processElement(row: Row, ctx: ProcessContext<S>): void;
  onTimer?(timestamp: number, ctx: OnTimerContext<S>): void;
}

declare function defineProcessFunction<S extends Record<string, StateDeclaration>>(fn: ProcessFunction<S>): ProcessFunction<S>;
`;

/** How the editor wraps the user's code so that PROCESS_CONTEXT_DTS types it. */
export const PROCESS_TYPECHECK_WRAPPER = { prefix: 'defineProcessFunction(', suffix: '\n);\nexport {};\n' };

export const processSpec: KindSpec<ProcessParams> = {
  kind: 'process',
  group: 'state',
  title: 'Process function',
  icon: 'λ',
  summary: "Your own keyed logic with state and timers, like Flink's KeyedProcessFunction.",
  semantics:
    "Flink's KeyedProcessFunction. `code` is a JS/TS object literal `({ state, processElement(row, ctx), onTimer(timestamp, ctx) })`. " +
    '`state` declares keyed state by name: `{ kind: "value" | "list" | "map" }`, `{ kind: "reducing", reduce(a, b) }` or `{ kind: "aggregating", create(), add(acc, v), get(acc) }`, each with an optional `ttlMs` (and `ttlUpdate`, `ttlTime`). ' +
    '`processElement` is called for each record with `ctx = { key, timestamp, kind, currentWatermark(), currentProcessingTime(), state, timerService, emit(row) }`; `ctx.state.<name>` is bound to the current key. ' +
    '`timerService` registers and deletes event-time timers (they fire once the watermark reaches them) and processing-time timers, per key, one per (key, time). ' +
    '`onTimer(timestamp, ctx)` runs with the timer\'s key and `ctx.timeDomain` ("event" or "processing"). ' +
    'Rows from `emit` are inserts; they carry the record\'s event time, the timer\'s time for event-time timers, and no event time for processing-time timers (Flink erases it). ' +
    'The input must be keyed by a Key by. Code without `processElement` stops the job at start with an error; a throw inside the code sends that record to the dead-letter output. State and timers are part of every checkpoint.',
  inputs: [{ name: 'in', keyed: true, doc: 'A keyed stream.' }],
  outputs: [{ name: 'out', doc: 'Whatever the function emits, as inserts.' }],
  params: {
    type: 'object',
    properties: {
      code: codeParam('JS/TS object literal `({ state, processElement(row, ctx), onTimer(timestamp, ctx) })`.'),
      outputSchema: schemaParam,
    },
    required: ['code'],
    additionalProperties: false,
  },
  defaults: {
    code: '({\n  state: { count: { kind: "value" } },\n  processElement(row, ctx) {\n    const n = (ctx.state.count.value() ?? 0) + 1;\n    ctx.state.count.update(n);\n    ctx.emit({ ...row, n });\n  },\n})',
  },
  example: {
    code: '({\n  state: { count: { kind: "value" } },\n  processElement(row, ctx) {\n    const n = (ctx.state.count.value() ?? 0) + 1;\n    ctx.state.count.update(n);\n    if (n === 1) ctx.timerService.registerEventTimeTimer(ctx.timestamp + 60000);\n  },\n  onTimer(timestamp, ctx) {\n    ctx.emit({ user: ctx.key, clicks: ctx.state.count.value(), windowEnd: timestamp });\n    ctx.state.count.clear();\n  },\n})',
    outputSchema: { user: 'string', clicks: 'integer', windowEnd: 'timestamp' },
  },
  stateful: true,
  codeParams: ['code'],
  lineage: byUserCode,
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const schema = params.outputSchema ?? null;
    // Emitted rows keep an event time; the field naming it survives only if the declared schema has it.
    const eventTime = schema ? (input.eventTime && input.eventTime in schema ? input.eventTime : null) : input.eventTime;
    return { outputs: { out: { fields: schema, eventTime, keyedBy: null, changelog: 'append', uniqueKey: null } } };
  },
};
