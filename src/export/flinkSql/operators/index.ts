/** Operator kind → its Flink SQL mapping. Sources and sinks are tables (sources.ts, sinks.ts). */
import type { OperatorExport } from './shared.ts';
import { filterExport, keyByExport, mapExport, projectExport, unionExport, unnestExport } from './stateless.ts';
import { aggregateExport } from './aggregate.ts';
import { windowExport } from './window.ts';
import { intervalJoinExport, joinExport } from './joins.ts';
import { temporalJoinExport } from './temporalJoin.ts';
import { lookupJoinExport } from './lookupJoin.ts';
import { semiJoinExport } from './semiJoin.ts';
import { dedupExport, topNExport } from './ranking.ts';
import { overAggregateExport, windowJoinExport } from './windowed.ts';
import { broadcastProcessExport, flatMapExport, processExport } from './userCode.ts';

export const operatorExports: Record<string, OperatorExport> = {
  filter: filterExport,
  map: mapExport,
  project: projectExport,
  flatMap: flatMapExport,
  unnest: unnestExport,
  keyBy: keyByExport,
  union: unionExport,
  aggregate: aggregateExport,
  window: windowExport,
  overAggregate: overAggregateExport,
  windowJoin: windowJoinExport,
  join: joinExport,
  intervalJoin: intervalJoinExport,
  temporalJoin: temporalJoinExport,
  lookupJoin: lookupJoinExport,
  semiJoin: semiJoinExport,
  topN: topNExport,
  dedup: dedupExport,
  process: processExport,
  broadcastProcess: broadcastProcessExport,
};

export type { OperatorExport } from './shared.ts';
