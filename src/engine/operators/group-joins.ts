import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../source.ts';

// Engine implementations of the joins kinds. Each kind has its own file; this list only gathers them.
export const joinsOperators: OperatorDefinition<any>[] = [];
export const joinsSources: SourceDefinition<any>[] = [];
