import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { missingField, sourceCommonProps } from './common.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import { scenario, scenarioNames, scenarios } from '../../generators/index.ts';
import type { DatagenColumn } from '../../generators/index.ts';

export interface GeneratorSourceParams extends CommonSourceParams {
  scenario: string;
  /** Units to generate: records, or visits / orders for the scenarios that emit several records per unit. */
  count: number;
  /** Defaults to the seed the job derives for this node; set it to correlate orders, payments and deliveries. */
  seed?: number;
  keys?: number;
  startTime?: number;
  disorderMs?: number;
  /** The datagen scenario: how each column of `schema` is made (random by default). */
  columns?: Record<string, DatagenColumn>;
}

export const DEFAULT_START_TIME = 1_700_000_000_000;
/** Units per second of event time when the node sets no rate. */
export const DEFAULT_GENERATOR_RATE = 1000;

const fieldList = (s: (typeof scenarios)[number]) => (Object.keys(s.fields).length ? Object.entries(s.fields).map(([f, t]) => `${f} (${t})`).join(', ') : 'those of `schema`, made as `columns` says');
const scenarioList = scenarios.map((s) => `- \`${s.name}\`: ${s.summary} Fields: ${fieldList(s)}.`).join('\n');

export const generatorSourceSpec: KindSpec<GeneratorSourceParams> = {
  kind: 'generatorSource',
  group: 'sources',
  title: 'Generator',
  icon: '⚙',
  summary: 'Seeded synthetic data (coffee shop visits, orders, payments…) at a chosen rate.',
  semantics: `Generates \`count\` units of the chosen scenario and ends. Unit u is nominally at event time \`startTime + u × 1000 / ratePerSec\` (ratePerSec defaults to ${DEFAULT_GENERATOR_RATE}); each record's \`ts\` is then moved back by a random 0..\`disorderMs\`, so the stream is out of order by at most \`disorderMs\`, and the default watermark strategy (\`eventTime\` = { field: "ts", maxOutOfOrdernessMs: disorderMs }) never makes a record late. Every record is a pure function of (seed, params, index): the same seed gives the same data, and a restore from any offset replays exactly. \`seed\` defaults to a seed the job derives for this node from \`settings.seed\`; give correlated streams (orders, payments, deliveries, customers) the same \`seed\`, \`count\`, \`keys\`, \`startTime\`, \`ratePerSec\` and \`disorderMs\` so they tell one story. For coffeeVisits \`count\` is the number of visits (2–3 records each), for deliveries the number of orders followed (2 records per paid order), for payments the number of orders followed (90% are paid). Processing-time pacing follows the rate: about ratePerSec units per second.

Scenarios:
${scenarioList}`,
  inputs: [],
  outputs: [{ name: 'out', doc: 'The generated records.' }],
  params: {
    type: 'object',
    properties: {
      scenario: { enum: scenarioNames(), description: 'Which data set to generate.' },
      count: { type: 'integer', minimum: 0, maximum: 1_000_000_000, description: 'How many units (records, visits or orders) to generate.' },
      seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Random seed; default: derived from the job seed and the node id.' },
      keys: { type: 'integer', minimum: 1, maximum: 10_000_000, description: 'Cardinality: customers, stores or sequence keys.' },
      startTime: { type: 'integer', description: 'Event time of the first unit, epoch ms.', 'x-weir-unit': 'ms' },
      disorderMs: { type: 'integer', minimum: 0, description: 'Largest random delay subtracted from event time (out-of-orderness).', 'x-weir-unit': 'ms' },
      ...sourceCommonProps,
      // Units, not records: a coffee visit is 2–3 records, so 20 visits/s arrive as about 57 records/s.
      ratePerSec: { type: 'number', exclusiveMinimum: 0, description: 'Units (records, visits or orders) per second of event time, and the simulated arrival pace; the designer\'s Speed, in records per second, paces a run instead.' },
      columns: {
        type: 'object',
        description: 'For the datagen scenario: how each column of `schema` is made, as Flink\'s datagen `fields.<column>.*` options say (random by default).',
        'x-weir-visible-when': { scenario: ['datagen'] },
        'x-weir-keys-from': 'schema',
        additionalProperties: {
          type: 'object',
          properties: {
            kind: { enum: ['random', 'sequence', 'arrival'], description: 'random values, a sequence from start to end, or the time the row is made (LOCALTIMESTAMP).' },
            min: { type: 'number', description: 'random numbers: smallest value (default 0).', 'x-weir-visible-when': { kind: ['random', null] }, 'x-weir-for-types': ['integer', 'number'] },
            max: { type: 'number', description: 'random numbers: largest value (default 1000).', 'x-weir-visible-when': { kind: ['random', null] }, 'x-weir-for-types': ['integer', 'number'] },
            length: { type: 'integer', minimum: 0, maximum: 100000, description: 'random strings: characters (default 100).', 'x-weir-visible-when': { kind: ['random', null] }, 'x-weir-for-types': ['string'] },
            start: { type: 'integer', description: 'sequence: first value (default 0).', 'x-weir-visible-when': { kind: ['sequence'] } },
            end: { type: 'integer', description: 'sequence: last value; the table ends after it.', 'x-weir-visible-when': { kind: ['sequence'] } },
            maxPastMs: { type: 'integer', minimum: 0, description: 'random timestamps: how far before the row is made they may lie.', 'x-weir-unit': 'ms', 'x-weir-visible-when': { kind: ['random', null] }, 'x-weir-for-types': ['timestamp'] },
            nullRate: { type: 'number', minimum: 0, maximum: 1, description: 'share of rows in which the column is NULL.' },
          },
          additionalProperties: false,
        },
      },
    },
    required: ['scenario', 'count'],
    additionalProperties: false,
  },
  defaults: { scenario: 'coffeeVisits', count: 1000, ratePerSec: 10 },
  example: { scenario: 'orders', count: 10_000, seed: 7, keys: 50, ratePerSec: 100, disorderMs: 2000 },
  stateful: false,
  infer: ({ params }) => {
    const s = scenario(params.scenario);
    if (s?.name === 'datagen') return inferDatagen(params);
    const fields = (params.schema as Record<string, FieldType> | undefined) ?? (s ? { ...s.fields } : null);
    const timeField = params.eventTime?.field ?? 'ts';
    const problems = missingField({ fields, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null }, timeField, 'params.eventTime.field');
    return { outputs: { out: { fields, eventTime: timeField, keyedBy: null, changelog: 'append', uniqueKey: null } }, problems };
  },
};

/** A datagen table's stream: the declared columns, event time only where the table put it. */
function inferDatagen(params: GeneratorSourceParams) {
  const fields = (params.schema as Record<string, FieldType> | undefined) ?? null;
  const timeField = params.eventTime?.field ?? null;
  const info = { fields, eventTime: timeField, keyedBy: null, changelog: 'append' as const, uniqueKey: null };
  const problems = fields ? (timeField ? missingField(info, timeField, 'params.eventTime.field') : []) : [{ field: 'params.schema', message: 'the datagen scenario makes the columns of `schema`: declare them', code: 'missing-schema' }];
  for (const c of Object.keys(params.columns ?? {})) {
    if (fields && !(c in fields)) problems.push({ field: `params.columns.${c}`, message: `"${c}" is not a column of \`schema\`; known columns: ${Object.keys(fields).join(', ')}`, code: 'unknown-field' });
  }
  return { outputs: { out: info }, problems };
}
