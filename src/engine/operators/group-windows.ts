import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../source.ts';
import { windowAggregate } from './window.ts';

// Engine implementations of the windows kinds. Each kind has its own file; this list only gathers them.
export const windowsOperators: OperatorDefinition<any>[] = [windowAggregate];
export const windowsSources: SourceDefinition<any>[] = [];
