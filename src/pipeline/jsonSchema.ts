import { pipelineTestSchema } from './tests/testSpec.ts';
import { kindSpecs } from './kinds/index.ts';
import { FIELD_TYPES } from '../core/streamInfo.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from './document.ts';
import type { JsonSchema } from './kindSpec.ts';

const portRef: JsonSchema = {
  type: 'object',
  properties: { node: { type: 'string', description: 'Node id.' }, port: { type: 'string', description: 'Port name on that node.' } },
  required: ['node', 'port'],
  additionalProperties: false,
};

const position = { type: 'integer', minimum: 1 };
const textSpan: JsonSchema = {
  type: 'object',
  properties: { line: position, column: position, endLine: position, endColumn: position },
  required: ['line', 'column', 'endLine', 'endColumn'],
  additionalProperties: false,
};

/**
 * The JSON Schema of the pipeline document, generated from the kind specs so that
 * the file in public/schema can never drift from what the validator accepts.
 */
export function buildPipelineSchema(): JsonSchema {
  const definitions: Record<string, JsonSchema> = { portRef, textSpan, fieldType: { enum: FIELD_TYPES } };
  for (const s of kindSpecs) definitions[`params_${s.kind}`] = { description: `${s.title}: ${s.summary}`, ...s.params };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `urn:weir:pipeline:${PIPELINE_VERSION}`,
    title: 'Weir pipeline document',
    description: 'A stateful streaming pipeline: nodes (operators) joined by edges between named ports. See docs/pipeline-format.md.',
    type: 'object',
    required: ['format', 'version', 'name', 'nodes', 'edges'],
    additionalProperties: false,
    properties: {
      format: { const: PIPELINE_FORMAT },
      version: { type: 'integer', minimum: 1, maximum: PIPELINE_VERSION, description: 'Older versions are migrated on load.' },
      name: { type: 'string', minLength: 1 },
      description: { type: 'string' },
      settings: {
        type: 'object',
        additionalProperties: false,
        properties: {
          stateBackend: { enum: ['memory', 'indexeddb'], description: 'Where keyed state lives.' },
          checkpoint: {
            type: 'object',
            additionalProperties: false,
            properties: {
              intervalMs: { type: ['integer', 'null'], minimum: 10, description: 'Checkpoint interval; null for manual checkpoints only.' },
              retain: { type: 'integer', minimum: 1, description: 'Completed checkpoints to keep.' },
              incremental: { type: 'boolean', description: 'Write only what changed since the last checkpoint.' },
              timeoutMs: { type: 'integer', minimum: 1 },
            },
            required: ['intervalMs'],
          },
          parallelism: { type: 'integer', minimum: 1, maximum: 8, description: 'Default subtasks per operator.' },
          maxParallelism: { type: 'integer', minimum: 1, maximum: 32768, description: 'Number of key groups.' },
          seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Seed for generators and anything random.' },
          idleTimeoutMs: { type: 'integer', minimum: 1, description: 'Default source idle timeout.' },
          defaultRatePerSec: { type: 'number', exclusiveMinimum: 0, description: 'Simulated pace of sources without a rate.' },
          runtime: { enum: ['inProcess', 'workers'], description: 'Where the designer runs the job: in one worker (stepping, inspection) or on Web Workers (parallel threads, for a job with a parallel node).' },
          code: {
            type: 'object',
            additionalProperties: false,
            properties: {
              timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, description: 'Time one batch of records may spend in user code (default 2000).' },
              memoryMb: { type: 'integer', minimum: 16, maximum: 16384, description: 'Memory limit of user code, MB (default 256): the heap of the code process in the command line; in the designer, what one batch of code may return.' },
            },
          },
        },
      },
      nodes: { type: 'array', items: { $ref: '#/definitions/node' } },
      edges: { type: 'array', items: { $ref: '#/definitions/edge' } },
      origin: {
        type: 'object',
        description: 'The Flink SQL script the document was planned from; each node\'s origin.sql is a span in it.',
        required: ['sql'],
        additionalProperties: false,
        properties: { sql: { type: 'string' } },
      },
      tests: { type: 'array', description: 'Pipeline tests: given rows on sources, what sinks must hold (`weir test`).', items: { $ref: '#/definitions/test' } },
    },
    definitions: {
      ...definitions,
      test: pipelineTestSchema,
      node: {
        type: 'object',
        required: ['id', 'kind', 'params'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
          kind: { enum: kindSpecs.map((s) => s.kind) },
          label: { type: 'string' },
          params: { type: 'object' },
          position: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false },
          parallelism: { type: 'integer', minimum: 1, maximum: 8 },
          origin: {
            type: 'object',
            description: 'Where the node came from: its span in the document\'s origin.sql (1-based; the end is just past the last character).',
            required: ['sql'],
            additionalProperties: false,
            properties: { sql: { $ref: '#/definitions/textSpan' } },
          },
        },
        allOf: kindSpecs.map((s) => ({
          if: { properties: { kind: { const: s.kind } }, required: ['kind'] },
          then: { properties: { params: { $ref: `#/definitions/params_${s.kind}` } } },
        })),
      },
      edge: {
        type: 'object',
        required: ['from', 'to'],
        additionalProperties: false,
        properties: { id: { type: 'string' }, from: { $ref: '#/definitions/portRef' }, to: { $ref: '#/definitions/portRef' } },
      },
    },
  };
}
