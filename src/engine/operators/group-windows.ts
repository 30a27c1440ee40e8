import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../../core/source.ts';
import { windowAggregate } from './window.ts';
import { overAggregate } from './overAggregate.ts';

// Engine implementations of the windows kinds. Each kind has its own file; this list only gathers them.
export const windowsOperators: OperatorDefinition<any>[] = [windowAggregate, overAggregate];
export const windowsSources: SourceDefinition<any>[] = [];
