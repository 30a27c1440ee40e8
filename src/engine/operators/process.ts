import type { OperatorContext, OperatorDefinition } from '../operator.ts';
import type { Row, RowKind } from '../types.ts';
import type { TimeDomain } from '../time/timers.ts';
import { loadUdf } from '../udf.ts';
import { isObject } from './rows.ts';
import { bindStates, declaredKinds } from './process/stateBindings.ts';
import type { ProcessParams } from '../../pipeline/kinds/process.ts';

/** The user's object literal, as loaded; checked before use. */
interface ProcessFunction {
  state?: unknown;
  processElement(row: Row, ctx: unknown): void;
  onTimer?(timestamp: number, ctx: unknown): void;
}

function loadProcessFunction(code: string): ProcessFunction {
  const fn = loadUdf<unknown>(code);
  const example = '({ processElement(row, ctx) { ctx.emit(row); } })';
  if (fn === null || typeof fn !== 'object') throw new Error(`process code must be an object literal with processElement(row, ctx), such as ${example}`);
  const f = fn as Partial<ProcessFunction>;
  if (typeof f.processElement !== 'function') throw new Error(`process code has no processElement(row, ctx) method; write it as ${example}`);
  if (f.onTimer !== undefined && typeof f.onTimer !== 'function') throw new Error('process code: onTimer must be a method onTimer(timestamp, ctx)');
  return fn as ProcessFunction;
}

/** A bad timer time would sit in the heap forever (NaN) or fire at once; refuse it with a clear message. */
function timerService(ctx: OperatorContext) {
  const check = (what: string, ts: unknown): number => {
    if (typeof ts !== 'number' || !Number.isFinite(ts)) throw new Error(`${what} needs a finite timestamp in ms, got ${String(ts)}`);
    return ts;
  };
  return Object.freeze({
    registerEventTimeTimer: (ts: number) => ctx.timers.registerEventTimeTimer(check('registerEventTimeTimer', ts)),
    registerProcessingTimeTimer: (ts: number) => ctx.timers.registerProcessingTimeTimer(check('registerProcessingTimeTimer', ts)),
    deleteEventTimeTimer: (ts: number) => ctx.timers.deleteEventTimeTimer(check('deleteEventTimeTimer', ts)),
    deleteProcessingTimeTimer: (ts: number) => ctx.timers.deleteProcessingTimeTimer(check('deleteProcessingTimeTimer', ts)),
  });
}

export const keyedProcess: OperatorDefinition<ProcessParams> = {
  kind: 'process',
  keyFields: (_p, _port, inputs) => inputs.in?.keyedBy ?? null,
  create({ ctx, params }) {
    const fn = loadProcessFunction(params.code);
    const state = bindStates(ctx.state, fn.state);
    const timers = timerService(ctx);

    // One context object per call kind, reused as Flink reuses its Context; getters read the current call.
    let timestamp: number | null = null;
    let kind: RowKind = '+I';
    let domain: TimeDomain = 'event';
    let outTs: number | null = null;
    const emit = (row: Row): void => {
      if (isObject(row)) ctx.emit({ kind: '+I', row, ts: outTs });
      else ctx.deadLetter(`process emitted ${row === null ? 'null' : Array.isArray(row) ? 'an array' : typeof row}, not a row object`, row);
    };
    const common = {
      get key() {
        return ctx.state.currentKey();
      },
      currentWatermark: () => ctx.currentWatermark(),
      currentProcessingTime: () => ctx.currentProcessingTime(),
      state,
      timerService: timers,
      emit,
    };
    const elementCtx = Object.freeze(
      Object.defineProperties(
        {},
        {
          ...Object.getOwnPropertyDescriptors(common),
          timestamp: { get: () => timestamp, enumerable: true },
          kind: { get: () => kind, enumerable: true },
        },
      ),
    );
    const timerCtx = Object.freeze(
      Object.defineProperties(
        {},
        {
          ...Object.getOwnPropertyDescriptors(common),
          timestamp: { get: () => timestamp, enumerable: true },
          timeDomain: { get: () => domain, enumerable: true },
        },
      ),
    );

    return {
      processElement(el) {
        timestamp = el.ts;
        kind = el.kind;
        outTs = el.ts;
        fn.processElement(el.row, elementCtx);
      },
      onTimer(t) {
        timestamp = t.ts;
        domain = t.domain;
        // As Flink's KeyedProcessOperator: event-time output carries the timer's time, processing-time output none.
        outTs = t.domain === 'event' ? t.ts : null;
        fn.onTimer?.(t.ts, timerCtx);
      },
      inspect() {
        return { states: declaredKinds(fn.state), keys: ctx.state.inspect(100) };
      },
    };
  },
};
