import type { OperatorContext, OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Element, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import type { MapKey } from '../../state/descriptors.ts';
import { loadCode } from '../codeHost.ts';
import type { InvokeAnswer } from '../codeHost.ts';
import { isObject } from './rows.ts';
import { RULE_PREFIX } from '../../pipeline/kinds/broadcastProcess.ts';
import type { BroadcastProcessParams } from '../../pipeline/kinds/broadcastProcess.ts';

/**
 * What broadcast code is called with, in its own realm: (row, rules, ctx). `rules` reads the
 * broadcast state only, as in Flink's ReadOnlyContext: get(key), has(key), keys(), values(),
 * entries() and size, each rule frozen. `ctx` holds key (the main stream's key, or null),
 * timestamp, currentWatermark() and currentProcessingTime().
 */
const STATE_NAME = 'rules';

const isMapKey = (v: unknown): v is MapKey => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

function emitResult(ctx: OperatorContext, el: Element, answer: InvokeAnswer): void {
  if (answer.e !== undefined) throw new Error(answer.e);
  if (answer.s !== undefined) return ctx.deadLetter(`broadcast code returned the wrong shape: ${answer.s}`, el.row);
  const result = answer.v;
  if (result === null || result === undefined) return;
  const rows = Array.isArray(result) ? result : [result];
  for (const r of rows) {
    if (isObject(r)) ctx.emit(derived(el, r));
    else ctx.deadLetter(`broadcast code returned ${r === null ? 'null' : Array.isArray(r) ? 'a nested array' : typeof r}, not a row object`, el.row);
  }
}

/**
 * The code runs in its own realm and reads a mirror of the rules there: each call carries the rule
 * changes since the last one, or all rules after a restore swapped the store (see codeObjects.ts).
 */
function ruleMirror(store: () => Map<MapKey, Row>) {
  let synced: Map<MapKey, Row> | null = null;
  let changes: [MapKey, Row | null][] = [];
  return {
    changed(k: MapKey, rule: Row | null) {
      if (synced === store()) changes.push([k, rule]);
    },
    take(): { full?: [MapKey, Row][]; changes?: [MapKey, Row | null][] } {
      const now = store();
      if (synced !== now) {
        synced = now;
        changes = [];
        return { full: [...now.entries()] };
      }
      const out = changes;
      changes = [];
      return out.length ? { changes: out } : {};
    },
  };
}

/** JSON has no infinities; the realm reads these back as numbers. */
const wire = (t: number): number | string => (Number.isFinite(t) ? t : t > 0 ? 'Infinity' : '-Infinity');

export const broadcastProcess: OperatorDefinition<BroadcastProcessParams> = {
  kind: 'broadcastProcess',
  keyFields: (_p, port, inputs) => (port === 'in' ? (inputs.in?.keyedBy ?? null) : null),
  create({ ctx, params }) {
    const ruleKey = params.ruleKey;
    // Looked up on every use: a restore swaps in a new map.
    const store = () => ctx.operatorState.broadcast<Row>(STATE_NAME);
    const code = params.code !== undefined ? loadCode({ nodeId: ctx.nodeId, what: 'broadcast code' }, params.code) : null;
    const mirror = ruleMirror(store);
    const ruleFields = ctx.inputs.rules?.fields;
    const columns = ruleFields ? Object.keys(ruleFields).filter((f) => f !== ruleKey) : null;

    function onRule(el: Element): void {
      const k = el.row[ruleKey];
      if (!isMapKey(k)) return ctx.deadLetter(`rule has no usable "${ruleKey}" value (text, number or boolean)`, el.row);
      if (isAddition(el.kind)) {
        const rule = { ...el.row };
        store().set(k, rule);
        mirror.changed(k, rule);
      } else if (store().delete(k)) mirror.changed(k, null);
    }

    function enrich(el: Element): void {
      const k = el.row[params.lookup!];
      const rule = isMapKey(k) ? store().get(k) : undefined;
      if (!rule) ctx.count('unmatched');
      const out: Row = { ...el.row };
      if (columns) for (const c of columns) out[RULE_PREFIX + c] = rule?.[c] ?? null;
      else if (rule) for (const c of Object.keys(rule)) if (c !== ruleKey) out[RULE_PREFIX + c] = rule[c];
      ctx.emit(derived(el, out));
    }

    return {
      processElement(el, port) {
        if (port === STATE_NAME) return onRule(el);
        if (!code) return enrich(el);
        const request = { t: 'broadcast', row: el.row, k: ctx.state.currentKey(), ts: el.ts, wm: wire(ctx.currentWatermark()), pt: ctx.currentProcessingTime(), ...mirror.take() };
        emitResult(ctx, el, code.invoke(request));
      },
      inspect() {
        const entries = [...store().entries()];
        return { ruleKey, ruleCount: entries.length, rules: entries.slice(0, 200).map(([key, rule]) => ({ key, rule })) };
      },
    };
  },
};
