/* eslint-disable @typescript-eslint/no-explicit-any */
import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../../core/source.ts';
import { inlineSource } from './inlineSource.ts';
import { filter } from './filter.ts';
import { map } from './map.ts';
import { project } from './project.ts';
import { flatMap } from './flatMap.ts';
import { unnest } from './unnest.ts';
import { keyBy } from './keyBy.ts';
import { union } from './union.ts';
import { aggregate } from './aggregate.ts';
import { viewSink, logSink, collectSink } from './sinks.ts';
import { windowsOperators, windowsSources } from './group-windows.ts';
import { joinsOperators, joinsSources } from './group-joins.ts';
import { stateOperators, stateSources } from './group-state.ts';
import { sourcesOperators, sourcesSources } from './group-sources.ts';

export const operatorDefinitions: OperatorDefinition<any>[] = [
  filter,
  map,
  project,
  flatMap,
  unnest,
  keyBy,
  union,
  aggregate,
  viewSink,
  logSink,
  collectSink,
  ...windowsOperators,
  ...joinsOperators,
  ...stateOperators,
  ...sourcesOperators,
];

export const sourceDefinitions: SourceDefinition<any>[] = [inlineSource, ...windowsSources, ...joinsSources, ...stateSources, ...sourcesSources];
