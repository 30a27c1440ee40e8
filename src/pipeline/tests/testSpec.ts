import type { JsonSchema } from '../kindSpec.ts';

/** How a test's rows are compared with a sink's final table. */
export type TestMode = 'equals' | 'contains' | 'excludes';
export const TEST_MODES: readonly TestMode[] = ['equals', 'contains', 'excludes'];

export interface TestExpectation {
  /** A sink node id; its final table (the view after the input ends) is checked. */
  sink: string;
  /** equals: exactly these rows (any order); contains: at least these; excludes: none of these. */
  mode: TestMode;
  rows: Record<string, unknown>[];
}

/**
 * A pipeline test, like Kafka Streams' TopologyTestDriver: the given rows replace those sources'
 * input (their schema, event time and changelog format still apply), the pipeline runs to the end,
 * and each expectation is checked. Sources not given keep their own data.
 */
export interface PipelineTest {
  name: string;
  given: Record<string, Record<string, unknown>[]>;
  expect: TestExpectation[];
}

export const pipelineTestSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'given', 'expect'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'What the test checks.' },
    given: { type: 'object', description: 'Rows per source node id, replacing that source\'s input.', additionalProperties: { type: 'array', items: { type: 'object' } } },
    expect: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['sink', 'mode', 'rows'],
        additionalProperties: false,
        properties: {
          sink: { type: 'string', description: 'Sink node id.' },
          mode: { enum: [...TEST_MODES], description: 'equals: exactly these rows; contains: at least these; excludes: none of these.' },
          rows: { type: 'array', items: { type: 'object' } },
        },
      },
    },
  },
};
