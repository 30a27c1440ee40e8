import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../source.ts';

// Engine implementations of the windows kinds. Each kind has its own file; this list only gathers them.
export const windowsOperators: OperatorDefinition<any>[] = [];
export const windowsSources: SourceDefinition<any>[] = [];
