import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../source.ts';

// Engine implementations of the state kinds. Each kind has its own file; this list only gathers them.
export const stateOperators: OperatorDefinition<any>[] = [];
export const stateSources: SourceDefinition<any>[] = [];
