/* eslint-disable @typescript-eslint/no-explicit-any */
import type { KindSpec } from '../kindSpec.ts';
import { inlineSourceSpec } from './inlineSource.ts';
import { filterSpec } from './filter.ts';
import { mapSpec } from './map.ts';
import { projectSpec } from './project.ts';
import { flatMapSpec } from './flatMap.ts';
import { unnestSpec } from './unnest.ts';
import { keyBySpec } from './keyBy.ts';
import { unionSpec } from './union.ts';
import { aggregateSpec } from './aggregate.ts';
import { viewSinkSpec, logSinkSpec, collectSinkSpec } from './sinks.ts';
import { windowsSpecs } from './group-windows.ts';
import { joinsSpecs } from './group-joins.ts';
import { stateSpecs } from './group-state.ts';
import { sourcesSpecs } from './group-sources.ts';

export const kindSpecs: KindSpec<any>[] = [
  inlineSourceSpec,
  ...sourcesSpecs,
  filterSpec,
  mapSpec,
  projectSpec,
  flatMapSpec,
  unnestSpec,
  unionSpec,
  keyBySpec,
  aggregateSpec,
  ...windowsSpecs,
  ...joinsSpecs,
  ...stateSpecs,
  viewSinkSpec,
  logSinkSpec,
  collectSinkSpec,
];

const byKind = new Map(kindSpecs.map((s) => [s.kind, s]));

export function kindSpec(kind: string): KindSpec<any> | undefined {
  return byKind.get(kind);
}
