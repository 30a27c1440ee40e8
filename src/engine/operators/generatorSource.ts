import type { CommonSourceParams, SourceDefinition } from '../../core/source.ts';
import type { GeneratorSourceParams } from '../../pipeline/kinds/generatorSource.ts';
import { DEFAULT_GENERATOR_RATE, DEFAULT_START_TIME } from '../../pipeline/kinds/generatorSource.ts';
import { scenario } from '../../generators/index.ts';
import type { Scenario, ScenarioContext } from '../../generators/index.ts';
import { scenarioReader } from '../../generators/reader.ts';
import { datagenLimit } from '../../generators/datagen.ts';
import type { FieldType } from '../../core/streamInfo.ts';

function resolve(params: GeneratorSourceParams): Scenario {
  const s = scenario(params.scenario);
  if (!s) throw new Error(`unknown generator scenario "${params.scenario}"`);
  return s;
}

export function scenarioContext(params: GeneratorSourceParams, jobSeed: number): ScenarioContext {
  const s = resolve(params);
  const table = s.name === 'datagen' ? { schema: (params.schema ?? {}) as Record<string, FieldType>, columns: params.columns ?? {} } : undefined;
  const count = Math.max(0, Math.floor(params.count ?? 0));
  return {
    seed: params.seed ?? jobSeed,
    count: table ? Math.min(count, datagenLimit(table)) : count,
    keys: Math.max(1, Math.floor(params.keys ?? s.defaultKeys)),
    startTime: params.startTime ?? DEFAULT_START_TIME,
    intervalMs: 1000 / (params.ratePerSec ?? DEFAULT_GENERATOR_RATE),
    disorderMs: Math.max(0, Math.floor(params.disorderMs ?? 0)),
    ...(table ? { table } : {}),
  };
}

export const generatorSource: SourceDefinition<GeneratorSourceParams> = {
  kind: 'generatorSource',
  open: (params, env) => scenarioReader(resolve(params), scenarioContext(params, env.seed), env.rows),
  // Event time is always `ts`, bounded by disorderMs; records are paced so that processing
  // time keeps up with event time even when a unit yields several records.
  taskParams(params): CommonSourceParams {
    const s = resolve(params);
    const rate = (params.ratePerSec ?? DEFAULT_GENERATOR_RATE) * (s.meanRecordsPerUnit ?? s.recordsPerUnit ?? 1);
    // A datagen table has event time only where its WATERMARK put it.
    const eventTime = params.eventTime ?? (s.name === 'datagen' ? undefined : { field: 'ts', maxOutOfOrdernessMs: params.disorderMs ?? 0 });
    return { schema: params.schema, ...(eventTime ? { eventTime } : {}), ratePerSec: rate };
  },
};
