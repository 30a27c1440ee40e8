import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../source.ts';

// Engine implementations of the sources kinds. Each kind has its own file; this list only gathers them.
export const sourcesOperators: OperatorDefinition<any>[] = [];
export const sourcesSources: SourceDefinition<any>[] = [];
