import type { OperatorContext, OperatorDefinition } from '../operator.ts';
import type { Element, Key, Row } from '../types.ts';
import { isAddition } from '../types.ts';
import type { MapKey } from '../../state/descriptors.ts';
import { loadFunction } from '../udf.ts';
import { isObject } from './rows.ts';
import { RULE_PREFIX } from '../../pipeline/kinds/broadcastProcess.ts';
import type { BroadcastProcessParams } from '../../pipeline/kinds/broadcastProcess.ts';

/** What user code sees of the broadcast state: reads only, as in Flink's ReadOnlyContext. */
export interface ReadOnlyRules {
  get(key: MapKey): Row | undefined;
  has(key: MapKey): boolean;
  keys(): MapKey[];
  values(): Row[];
  entries(): [MapKey, Row][];
  readonly size: number;
}

export interface BroadcastCodeContext {
  /** The main stream's key when it is keyed, otherwise null. */
  readonly key: Key;
  /** Event time of the record, or null when it has none. */
  readonly timestamp: number | null;
  currentWatermark(): number;
  currentProcessingTime(): number;
}

type RuleFn = (row: Row, rules: ReadOnlyRules, ctx: BroadcastCodeContext) => unknown;

const STATE_NAME = 'rules';

const isMapKey = (v: unknown): v is MapKey => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

function readOnlyRules(store: () => Map<MapKey, Row>): ReadOnlyRules {
  // Freezing on the way out stops user code from editing a rule in place, restored copies included.
  const frozen = (r: Row | undefined) => (r === undefined ? r : Object.freeze(r));
  return Object.freeze({
    get: (k: MapKey) => frozen(store().get(k)),
    has: (k: MapKey) => store().has(k),
    keys: () => [...store().keys()],
    values: () => [...store().values()].map((r) => frozen(r)!),
    entries: () => [...store().entries()].map(([k, r]) => [k, frozen(r)!] as [MapKey, Row]),
    get size() {
      return store().size;
    },
  });
}

function emitResult(ctx: OperatorContext, el: Element, result: unknown): void {
  if (result === null || result === undefined) return;
  const rows = Array.isArray(result) ? result : [result];
  for (const r of rows) {
    if (isObject(r)) ctx.emit({ kind: el.kind, row: r, ts: el.ts });
    else ctx.deadLetter(`broadcast code returned ${r === null ? 'null' : Array.isArray(r) ? 'a nested array' : typeof r}, not a row object`, el.row);
  }
}

export const broadcastProcess: OperatorDefinition<BroadcastProcessParams> = {
  kind: 'broadcastProcess',
  keyFields: (_p, port, inputs) => (port === 'in' ? (inputs.in?.keyedBy ?? null) : null),
  create({ ctx, params }) {
    const ruleKey = params.ruleKey;
    // Looked up on every use: a restore swaps in a new map.
    const store = () => ctx.operatorState.broadcast<Row>(STATE_NAME);
    const view = readOnlyRules(store);
    const fn = params.code !== undefined ? loadFunction<RuleFn>(params.code, 'broadcast code') : null;
    const ruleFields = ctx.inputs.rules?.fields;
    const columns = ruleFields ? Object.keys(ruleFields).filter((f) => f !== ruleKey) : null;

    function onRule(el: Element): void {
      const k = el.row[ruleKey];
      if (!isMapKey(k)) return ctx.deadLetter(`rule has no usable "${ruleKey}" value (text, number or boolean)`, el.row);
      if (isAddition(el.kind)) store().set(k, { ...el.row });
      else store().delete(k);
    }

    function enrich(el: Element): void {
      const k = el.row[params.lookup!];
      const rule = isMapKey(k) ? store().get(k) : undefined;
      if (!rule) ctx.count('unmatched');
      const out: Row = { ...el.row };
      if (columns) for (const c of columns) out[RULE_PREFIX + c] = rule?.[c] ?? null;
      else if (rule) for (const c of Object.keys(rule)) if (c !== ruleKey) out[RULE_PREFIX + c] = rule[c];
      ctx.emit({ kind: el.kind, row: out, ts: el.ts });
    }

    return {
      processElement(el, port) {
        if (port === STATE_NAME) return onRule(el);
        if (!fn) return enrich(el);
        const codeCtx: BroadcastCodeContext = {
          key: ctx.state.currentKey(),
          timestamp: el.ts,
          currentWatermark: () => ctx.currentWatermark(),
          currentProcessingTime: () => ctx.currentProcessingTime(),
        };
        emitResult(ctx, el, fn(el.row, view, codeCtx));
      },
      inspect() {
        const entries = [...store().entries()];
        return { ruleKey, ruleCount: entries.length, rules: entries.slice(0, 200).map(([key, rule]) => ({ key, rule })) };
      },
    };
  },
};
