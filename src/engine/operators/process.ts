import type { OperatorContext, OperatorDefinition } from '../operator.ts';
import { RefusedCall } from '../operator.ts';
import type { Element } from '../../core/types.ts';
import { loadCode } from '../codeHost.ts';
import type { InvokeAnswer, LoadedCode } from '../codeHost.ts';
import { isObject } from './rows.ts';
import { bindStates, declaredKinds, readState, replay } from './process/stateBindings.ts';
import type { StateHandle } from './process/stateBindings.ts';
import type { ProcessParams } from '../../pipeline/kinds/process.ts';

/** What the driver read of the user's object literal (see objectShape in codeObjects.ts). */
interface ProcessShape {
  methods: string[];
  state: Record<string, unknown> | { invalid: true } | null;
}

/** Loads the code through the code host and checks its shape with the messages a user needs. */
function loadProcessFunction(nodeId: string, code: string): { code: LoadedCode; shape: ProcessShape } {
  const example = '({ processElement(row, ctx) { ctx.emit(row); } })';
  let loaded: LoadedCode;
  try {
    loaded = loadCode({ nodeId, what: 'process code' }, code, 'object');
  } catch (e) {
    if (e instanceof Error && /must be an object literal/.test(e.message)) throw new Error(`process code must be an object literal with processElement(row, ctx), such as ${example}`);
    throw e;
  }
  const shape = loaded.shape as ProcessShape;
  if (!shape.methods.includes('processElement')) throw new Error(`process code has no processElement(row, ctx) method; write it as ${example}`);
  return { code: loaded, shape };
}

/** A state declaration as the host sees it: the realm's functions stand in as markers. */
function hostDeclarations(shape: ProcessShape): unknown {
  if (shape.state === null) return undefined;
  if ('invalid' in shape.state) return null;
  const out: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(shape.state)) {
    if (d === null || typeof d !== 'object') out[name] = d;
    else out[name] = Object.fromEntries(Object.entries(d as Record<string, unknown>).map(([k, v]) => [k, isMarker(v) ? () => undefined : v]));
  }
  return out;
}
const isMarker = (v: unknown): boolean => v !== null && typeof v === 'object' && (v as { fn?: unknown }).fn === true;

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

/** The timer calls the code made, as the realm names them. */
const timerOps = {
  re: (t: ReturnType<typeof timerService>, ts: number) => t.registerEventTimeTimer(ts),
  rp: (t: ReturnType<typeof timerService>, ts: number) => t.registerProcessingTimeTimer(ts),
  de: (t: ReturnType<typeof timerService>, ts: number) => t.deleteEventTimeTimer(ts),
  dp: (t: ReturnType<typeof timerService>, ts: number) => t.deleteProcessingTimeTimer(ts),
};

const hasTtl = (declarations: unknown): boolean => Object.values((declarations ?? {}) as Record<string, { ttlMs?: unknown }>).some((d) => d?.ttlMs !== undefined);

/** JSON has no infinities; the realm reads these back as numbers. */
const wire = (t: number): number | string => (Number.isFinite(t) ? t : t > 0 ? 'Infinity' : '-Infinity');

export const keyedProcess: OperatorDefinition<ProcessParams> = {
  kind: 'process',
  keyFields: (_p, _port, inputs) => inputs.in?.keyedBy ?? null,
  create({ ctx, params }) {
    const { code, shape } = loadProcessFunction(ctx.nodeId, params.code);
    const declarations = hostDeclarations(shape);
    // The host keeps every state; the code works on a snapshot per call (see codeObjects.ts).
    const handles = bindStates(ctx.state, declarations, { inRealm: true }) as Record<string, StateHandle>;
    const kinds = declaredKinds(declarations);
    const timers = timerService(ctx);
    const hasTimer = shape.methods.includes('onTimer');

    // Names, kinds and handles listed once: a snapshot is taken for every key of every crossing.
    const names = Object.keys(handles);
    const kindList = names.map((n) => kinds[n]);
    const handleList = names.map((n) => handles[n]);
    const snapshot = (): Record<string, unknown> => {
      const st: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) st[names[i]] = readState(kindList[i], handleList[i]);
      return st;
    };

    // Applies a call's effects in order: state writes, then timers, then output. A call that threw
    // or broke a limit brought no effects, so a record is applied whole or not at all.
    const apply = (answer: InvokeAnswer, outTs: number | null, row: unknown): void => {
      if (answer.e !== undefined) throw new RefusedCall(answer.e);
      if (answer.s !== undefined) return ctx.deadLetter(`process code handed over something that is not plain data: ${answer.s}`, row);
      for (const op of answer.ops ?? []) replay(handles[op[1] as string], kinds[op[1] as string], op);
      for (const [t, ts] of answer.tm ?? []) timerOps[t as keyof typeof timerOps](timers, ts);
      for (const o of answer.out ?? []) {
        if ('s' in o) ctx.deadLetter(`process emitted a row that is not plain data: ${o.s}`, row);
        else if (isObject(o.v)) ctx.emit({ kind: '+I', row: o.v, ts: outTs });
        else ctx.deadLetter(`process emitted ${o.v === null ? 'null' : Array.isArray(o.v) ? 'an array' : typeof o.v}, not a row object`, o.v);
      }
    };

    // In a crossing of several calls, `ks` numbers the key; a later call of a key brings no state
    // (`st` undefined is left out of the JSON) and starts from what the code host carried on.
    const request = (el: Element, ks?: number, first = true): object =>
      ({ t: 'process', m: 'processElement', row: el.row, ts: el.ts, kind: el.kind, k: ctx.state.currentKey(), wm: wire(ctx.currentWatermark()), pt: ctx.currentProcessingTime(), st: first ? snapshot() : undefined, ks });

    return {
      processElement(el) {
        apply(code.invoke(request(el)), el.ts, el.row);
      },
      keyedCalls: {
        // The host's TTL expires a value by the time of each read, which the realm does not know.
        carry: !hasTtl(declarations),
        prepare: request,
        run: (requests) => code.invokeEach(requests),
        apply: (el, answer) => apply(answer as InvokeAnswer, el.ts, el.row),
      },
      onTimer(t) {
        if (!hasTimer) return;
        const answer = code.invoke({ t: 'process', m: 'onTimer', ts: t.ts, dom: t.domain, k: ctx.state.currentKey(), wm: wire(ctx.currentWatermark()), pt: ctx.currentProcessingTime(), st: snapshot() });
        // As Flink's KeyedProcessOperator: event-time output carries the timer's time, processing-time output none.
        apply(answer, t.domain === 'event' ? t.ts : null, undefined);
      },
      inspect() {
        return { states: kinds, keys: ctx.state.inspect(100) };
      },
    };
  },
};
