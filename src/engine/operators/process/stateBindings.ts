import type { KeyedStateBackend } from '../../../state/backend.ts';
import type { AnyDescriptor, ListState, MapKey, MapState, ReducingState, TtlConfig, ValueState } from '../../../state/descriptors.ts';
import { aggregatingState, listState, mapState, reducingState, valueState } from '../../../state/descriptors.ts';

const KINDS = ['value', 'list', 'map', 'reducing', 'aggregating'] as const;

/** One entry of the user's `state: { ... }` block, as written. */
interface StateDeclaration {
  kind?: unknown;
  ttlMs?: unknown;
  ttlUpdate?: unknown;
  ttlTime?: unknown;
  reduce?: unknown;
  create?: unknown;
  add?: unknown;
  get?: unknown;
}

const isFn = (x: unknown): x is (...args: never[]) => unknown => typeof x === 'function';

function ttlOf(name: string, d: StateDeclaration): TtlConfig | undefined {
  if (d.ttlMs === undefined) return undefined;
  if (typeof d.ttlMs !== 'number' || !(d.ttlMs > 0)) throw new Error(`state "${name}": ttlMs must be a positive number of milliseconds`);
  if (d.ttlUpdate !== undefined && d.ttlUpdate !== 'onCreateAndWrite' && d.ttlUpdate !== 'onReadAndWrite') {
    throw new Error(`state "${name}": ttlUpdate must be "onCreateAndWrite" or "onReadAndWrite"`);
  }
  if (d.ttlTime !== undefined && d.ttlTime !== 'processing' && d.ttlTime !== 'event') throw new Error(`state "${name}": ttlTime must be "processing" or "event"`);
  return { ttlMs: d.ttlMs, update: d.ttlUpdate as TtlConfig['update'], time: d.ttlTime as TtlConfig['time'] };
}

/** Turns one declaration into a descriptor, or says precisely what is wrong with it. */
export function describeState(name: string, raw: unknown): AnyDescriptor {
  if (raw === null || typeof raw !== 'object') throw new Error(`state "${name}" must be an object such as { kind: 'value' }`);
  const d = raw as StateDeclaration;
  const ttl = ttlOf(name, d);
  switch (d.kind) {
    case 'value':
      return valueState(name, ttl);
    case 'list':
      return listState(name, ttl);
    case 'map':
      return mapState(name, ttl);
    case 'reducing':
      if (!isFn(d.reduce)) throw new Error(`state "${name}": reducing state needs reduce(a, b)`);
      return reducingState(name, d.reduce as (a: unknown, b: unknown) => unknown, ttl);
    case 'aggregating':
      if (!isFn(d.create) || !isFn(d.add) || !isFn(d.get)) throw new Error(`state "${name}": aggregating state needs create(), add(acc, value) and get(acc)`);
      return aggregatingState(name, { create: d.create as () => unknown, add: d.add as (a: unknown, v: unknown) => unknown, get: d.get as (a: unknown) => unknown }, ttl);
    default:
      throw new Error(`state "${name}" has kind ${JSON.stringify(d.kind)}; use one of ${KINDS.map((k) => `'${k}'`).join(', ')}`);
  }
}

/**
 * Binds every declared state once, as Flink binds descriptors in open(); the handles follow
 * the backend's current key, so the same object serves every key.
 *
 * `inRealm`: the code runs in another realm and reduces or aggregates there; the host's reducing
 * and aggregating states then hold the accumulator the code hands back (a write replaces it).
 */
export function bindStates(backend: KeyedStateBackend, declarations: unknown, opts: { inRealm?: boolean } = {}): Readonly<Record<string, unknown>> {
  if (declarations === undefined) return Object.freeze({});
  if (declarations === null || typeof declarations !== 'object' || Array.isArray(declarations)) {
    throw new Error('state must be an object of named declarations, such as { count: { kind: "value" } }');
  }
  const handles: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(declarations)) {
    const d = describeState(name, raw);
    switch (d.kind) {
      case 'value':
        handles[name] = backend.value(d);
        break;
      case 'list':
        handles[name] = backend.list(d);
        break;
      case 'map':
        handles[name] = backend.map(d);
        break;
      case 'reducing':
        handles[name] = backend.reducing(opts.inRealm ? reducingState(name, (_a: unknown, b: unknown) => b, d.ttl) : d);
        break;
      case 'aggregating':
        handles[name] = backend.aggregating(opts.inRealm ? aggregatingState(name, { create: () => undefined, add: (_a: unknown, x: unknown) => x, get: (a: unknown) => a }, d.ttl) : d);
        break;
    }
  }
  return Object.freeze(handles);
}

/** Any bound handle; which methods it has depends on its kind. */
export type StateHandle = Partial<ValueState<unknown> & ListState<unknown> & MapState<MapKey, unknown> & ReducingState<unknown>>;

/** The current key's value of one state as plain data for the code's realm; null when absent. */
export function readState(kind: string, h: StateHandle): unknown {
  switch (kind) {
    case 'value':
      return h.value!() ?? null;
    case 'list': {
      const l = h.get!() as unknown[];
      return l.length ? l : null;
    }
    case 'map':
      return h.isEmpty!() ? null : h.entries!();
    default:
      return h.get!() ?? null;
  }
}

/**
 * Replays one write the code made in its realm on the host's state: ["s", name, value] sets (for
 * reducing and aggregating state: the new accumulator), ["c", name] clears, ["a"]/["U"] add to or
 * replace a list, ["p"]/["r"] put or remove a map entry.
 */
export function replay(h: StateHandle | undefined, kind: string, op: unknown[]): void {
  if (!h) throw new Error(`the code wrote state "${String(op[1])}", which it does not declare`);
  switch (op[0]) {
    case 'c':
      return h.clear!();
    case 's':
      if (kind === 'value') return h.update!(op[2]);
      return h.add!(op[2]);
    case 'a':
      return h.add!(op[2]);
    case 'U':
      return h.update!(op[2] as never);
    case 'p':
      return h.put!(op[2] as MapKey, op[3]);
    case 'r':
      return h.remove!(op[2] as MapKey);
  }
  throw new Error(`unknown state write ${JSON.stringify(op[0])}`);
}

export const declaredKinds = (declarations: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((declarations ?? {}) as Record<string, StateDeclaration>).map(([n, d]) => [n, String(d?.kind)]));
