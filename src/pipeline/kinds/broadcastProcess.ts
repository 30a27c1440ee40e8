import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { codeParam, inputOf, missingField, schemaParam } from './common.ts';
import type { InferProblem } from './common.ts';
import { byUserCode, copyOf, fromView, windowedView } from '../lineage/derive.ts';
import type { PortLineage } from '../lineage/types.ts';

export interface BroadcastProcessParams {
  /** Field of a rule row that identifies it in broadcast state. */
  ruleKey: string;
  /** Enrichment: field of the main row whose value is looked up among the rule keys. */
  lookup?: string;
  /** Custom: a JS/TS function `(row, rules, ctx) => row | row[] | null | undefined`. */
  code?: string;
  /** Declared output fields of `code`. */
  outputSchema?: Record<string, FieldType>;
}

/** Rule columns are prefixed so that they cannot clash with the main row's own fields. */
export const RULE_PREFIX = 'rule_';

/** Columns enrichment adds: every rule field but the rule key, prefixed; null when the rules schema is unknown. */
export function ruleColumns(ruleFields: Record<string, FieldType> | null, ruleKey: string): Record<string, FieldType> | null {
  if (!ruleFields) return null;
  const out: Record<string, FieldType> = {};
  for (const [f, t] of Object.entries(ruleFields)) if (f !== ruleKey) out[RULE_PREFIX + f] = t;
  return out;
}

export const broadcastProcessSpec: KindSpec<BroadcastProcessParams> = {
  kind: 'broadcastProcess',
  group: 'state',
  title: 'Broadcast rules',
  icon: '⇶',
  summary: 'Applies a broadcast stream of rules (broadcast state) to every record of the main stream.',
  semantics:
    "Flink's broadcast state pattern. Every record of `rules` reaches every subtask and is stored in broadcast map state under its `ruleKey` value: +I/+U put the rule (replacing one with the same key), -U/-D remove it. " +
    'A rule row without a usable `ruleKey` value (text, number or boolean) goes to the dead-letter output. ' +
    'Each main record is processed against the rules present at that moment; nothing is buffered, so a record that arrives before its rule sees no rule (as in Flink). ' +
    'With `lookup`, the main row is enriched: the rule whose key equals `row[lookup]` (same type and value) adds each of its fields except the key as `rule_<field>`; ' +
    'when no rule matches, those columns are NULL (they come from the rules schema) and `unmatched` is counted. ' +
    'With `code`, a JS/TS function `(row, rules, ctx)` is called, where `rules` is a read-only view `{ get(k), has(k), keys(), values(), entries(), size }` and ctx is `{ key, timestamp, currentWatermark(), currentProcessingTime() }`; ' +
    'the returned row, rows, or nothing (null/undefined) are emitted with the input row kind and event time. ' +
    'The rule store is part of every checkpoint. The output watermark is the minimum of both inputs, so a rules stream without event time holds it back until it ends or goes idle.',
  inputs: [
    { name: 'in', doc: 'The main stream, keyed or not.' },
    { name: 'rules', broadcast: true, doc: 'The rules stream; every subtask receives all of it.' },
  ],
  outputs: [{ name: 'out', doc: 'Main records, enriched or transformed by the rules.' }],
  params: {
    type: 'object',
    properties: {
      ruleKey: { type: 'string', minLength: 1, description: 'Field of a rule row that identifies the rule.' },
      lookup: { type: 'string', minLength: 1, description: 'Field of the main row matched against the rule keys (enrichment).' },
      code: codeParam('JS/TS function `(row, rules, ctx) => row | row[] | null`.'),
      outputSchema: schemaParam,
    },
    required: ['ruleKey'],
    oneOf: [{ required: ['lookup'] }, { required: ['code'] }],
    additionalProperties: false,
  },
  defaults: { ruleKey: 'id', lookup: 'rule_id' },
  example: { ruleKey: 'sensor', lookup: 'sensor' },
  stateful: true,
  codeParams: ['code'],
  lineage: (a) => {
    if (a.params.code !== undefined) return byUserCode(a);
    const { params, inputs, outputs } = a;
    const view: PortLineage = windowedView(undefined, inputs.in?.[0], 'in');
    const condition = `in.${params.lookup} = rules.${params.ruleKey}`;
    if (params.lookup && view[params.lookup]) view[params.lookup] = { ...view[params.lookup], role: 'joinKey', condition };
    for (const f of Object.keys(inputs.rules?.[0]?.fields ?? {})) if (f !== params.ruleKey) view[RULE_PREFIX + f] = copyOf('rules', f);
    return { out: fromView(outputs.out, view) };
  },
  infer: ({ params, inputs }) => {
    const main = inputOf(inputs, 'in');
    const rules = inputOf(inputs, 'rules');
    const problems: InferProblem[] = [...missingField(rules, params.ruleKey, 'params.ruleKey'), ...missingField(main, params.lookup, 'params.lookup')];
    if (params.outputSchema && params.code === undefined) {
      problems.push({ field: 'params.outputSchema', message: 'outputSchema only applies with code; enrichment derives its fields from both inputs', code: 'extra-param' });
    }
    if (params.code !== undefined) {
      return { outputs: { out: { ...main, fields: params.outputSchema ?? null, keyedBy: null, uniqueKey: null } }, problems };
    }
    const added = ruleColumns(rules.fields, params.ruleKey);
    for (const f of Object.keys(added ?? {})) {
      if (main.fields && f in main.fields) problems.push({ field: 'params.lookup', message: `the main stream already has a field "${f}", which the rule column would overwrite; rename it upstream`, code: 'duplicate-column' });
    }
    const fields = main.fields && added ? { ...main.fields, ...added } : null;
    return { outputs: { out: { ...main, fields, keyedBy: null } }, problems };
  },
};
