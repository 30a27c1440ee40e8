import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import { FIELD_TYPES, unknownStream } from '../../core/streamInfo.ts';
import type { JsonSchema } from '../kindSpec.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import { CHANGELOG_FORMATS } from '../../core/changelogDecoder.ts';
import { exprProblems } from './exprCheck.ts';

export type InferProblem = { field: string; message: string; code: string };

export const fieldList = (description: string, minItems = 1): JsonSchema => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  minItems,
  description,
});

export const codeParam = (description: string): JsonSchema => ({ type: 'string', description, 'x-weir-code': true });
export const exprParam = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description, 'x-weir-expr': true });

export const durationMs = (description: string, minimum = 1): JsonSchema => ({ type: 'integer', minimum, description, 'x-weir-unit': 'ms' });

export const schemaParam: JsonSchema = {
  type: 'object',
  description: 'Declared fields and their types. Records whose fields have other types go to the dead-letter output.',
  additionalProperties: { enum: FIELD_TYPES },
};

export const eventTimeParam: JsonSchema = {
  type: 'object',
  description: 'Where event time comes from and how watermarks are generated.',
  properties: {
    field: { type: 'string', minLength: 1, description: 'Field holding the event time (epoch ms or ISO-8601 text).' },
    expr: {
      ...exprParam('Computes the event time from the record (epoch ms or a timestamp, e.g. `TO_TIMESTAMP(`ts_text`)`) and stores it in `field`, a field the schema does not declare: a SQL computed column `field AS expr`.'),
    },
    maxOutOfOrdernessMs: { type: 'integer', minimum: 0, description: 'Watermark = max event time seen − this bound − 1.' },
    idleTimeoutMs: { type: 'integer', minimum: 1, description: 'After this long without records the source is idle and stops holding back watermarks.' },
  },
  required: ['field'],
  additionalProperties: false,
};

/** A source whose records are a changelog: Debezium, Canal or Maxwell JSON, Flink's changelog-json, or upserts by key. */
export const changelogParam: JsonSchema = {
  type: 'object',
  description: 'Read the records as a changelog instead of appends: `debezium-json` (op c/r/u/d with before/after), `canal-json` (type INSERT/UPDATE/DELETE with a data array and the old values of the changed fields), `maxwell-json` (type insert/update/delete with data and old), `changelog-json` (op +I/-U/+U/-D with data), or `upsert` by primary key, where a null value deletes (upsert-kafka).',
  properties: {
    format: { enum: [...CHANGELOG_FORMATS], description: 'How each record encodes its change.' },
    primaryKey: { ...fieldList('The table\'s primary key. Required for upsert; for the other formats it makes the source keep the latest row per key, so every retraction matches what downstream saw.') },
  },
  required: ['format'],
  additionalProperties: false,
};

/**
 * The output of a source that may read a changelog: updating, keyed by its primary key, and the
 * problems of its declaration. Shared by every kind that offers `changelog`.
 */
export function sourceStream(params: CommonSourceParams, fields: Record<string, FieldType> | null): { info: StreamInfo; problems: InferProblem[] } {
  const problems: InferProblem[] = [];
  const et = params.eventTime?.field;
  const computed = params.eventTime?.expr;
  if (computed !== undefined) {
    if (fields && et && et in fields) problems.push({ field: 'params.eventTime.field', message: `"${et}" is computed by eventTime.expr, so the schema must not declare it too; rename one of them`, code: 'duplicate-field' });
    problems.push(...exprProblems(computed, { ...unknownStream(), fields }, 'params.eventTime.expr'));
    if (fields && et) fields = { ...fields, [et]: 'timestamp' };
  } else if (fields && et && !(et in fields)) problems.push({ field: 'params.eventTime.field', message: `the schema declares no field "${et}"; add it or pick another event-time field`, code: 'unknown-field' });
  const cl = params.changelog;
  const pk = cl?.primaryKey?.length ? cl.primaryKey : null;
  if (cl?.format === 'upsert' && !pk) problems.push({ field: 'params.changelog.primaryKey', message: 'an upsert source needs a primary key: the fields that identify a row (a null value deletes that key)', code: 'missing-primary-key' });
  if (pk && fields) pk.forEach((f, i) => {
    if (!(f in fields)) problems.push({ field: `params.changelog.primaryKey[${i}]`, message: `the schema declares no field "${f}"; known fields: ${Object.keys(fields).join(', ') || '(none)'}`, code: 'unknown-field' });
  });
  return {
    info: { fields, eventTime: et ?? null, keyedBy: null, changelog: cl ? 'update' : 'append', uniqueKey: cl ? pk : null },
    problems,
  };
}

export const sourceCommonProps: Record<string, JsonSchema> = {
  schema: schemaParam,
  eventTime: eventTimeParam,
  ratePerSec: { type: 'number', exclusiveMinimum: 0, description: 'Simulated arrival rate, records per second of processing time.' },
};

export const aggregateCallSchema: JsonSchema = {
  type: 'object',
  properties: {
    fn: { enum: ['count', 'sum', 'avg', 'min', 'max', 'countDistinct', 'sumDistinct', 'avgDistinct', 'firstValue', 'lastValue', 'listAgg', 'listAggDistinct', 'arrayAgg', 'jsonArrayAgg', 'jsonObjectAgg', 'udaf'], description: 'Aggregate function.' },
    field: { type: 'string', minLength: 1, description: 'Input field; leave out for COUNT(*).' },
    as: { type: 'string', minLength: 1, description: 'Output column name.' },
    separator: { type: 'string', description: 'For listAgg and listAggDistinct: what goes between two values; default ",".', 'x-weir-visible-when': { fn: ['listAgg', 'listAggDistinct'] } },
    keyField: { type: 'string', minLength: 1, description: 'For jsonObjectAgg: the input field that names each member; `field` is its value.', 'x-weir-visible-when': { fn: ['jsonObjectAgg'] } },
    nulls: { enum: ['keep', 'skip'], description: 'For arrayAgg, jsonArrayAgg and jsonObjectAgg: keep NULL values or skip them; default keep, but skip for jsonArrayAgg (as Flink).', 'x-weir-visible-when': { fn: ['arrayAgg', 'jsonArrayAgg', 'jsonObjectAgg'] } },
    jsonValues: { type: 'boolean', description: 'For jsonArrayAgg and jsonObjectAgg: the values are JSON text, nested as JSON instead of as strings.', 'x-weir-visible-when': { fn: ['jsonArrayAgg', 'jsonObjectAgg'] } },
    code: { ...codeParam('For udaf: ({ create, add, retract, get, merge }).'), 'x-weir-visible-when': { fn: ['udaf'] } },
  },
  required: ['fn', 'as'],
  additionalProperties: false,
};

/** Reports fields that the upstream does not have, when the upstream schema is known. */
export function missingFields(info: StreamInfo | undefined, fields: readonly string[], path: string): InferProblem[] {
  if (!info?.fields) return [];
  const out: InferProblem[] = [];
  fields.forEach((f, i) => {
    if (!(f in info.fields!)) {
      out.push({ field: `${path}[${i}]`, message: `no field "${f}" upstream; known fields: ${Object.keys(info.fields!).join(', ') || '(none)'}`, code: 'unknown-field' });
    }
  });
  return out;
}

export function missingField(info: StreamInfo | undefined, field: string | undefined, path: string): InferProblem[] {
  if (field === undefined || !info?.fields || field in info.fields) return [];
  return [{ field: path, message: `no field "${field}" upstream; known fields: ${Object.keys(info.fields).join(', ') || '(none)'}`, code: 'unknown-field' }];
}

export function pick(fields: Record<string, FieldType> | null, names: readonly string[]): Record<string, FieldType> | null {
  if (!fields) return null;
  const out: Record<string, FieldType> = {};
  for (const n of names) if (n in fields) out[n] = fields[n];
  return out;
}

export const inputOf = (inputs: Record<string, StreamInfo>, port = 'in'): StreamInfo => inputs[port] ?? unknownStream();

export function aggregateOutputType(fn: string, input: FieldType | undefined): FieldType | null {
  switch (fn) {
    case 'count':
    case 'countDistinct':
      return 'integer';
    case 'listAgg':
    case 'listAggDistinct':
    case 'jsonArrayAgg':
    case 'jsonObjectAgg':
      return 'string';
    case 'avg':
    case 'avgDistinct':
      return 'number';
    case 'sum':
    case 'sumDistinct':
      return input === 'integer' ? 'integer' : 'number';
    case 'min':
    case 'max':
    case 'firstValue':
    case 'lastValue':
    case 'lag':
      return input ?? null;
    default:
      return 'json';
  }
}
