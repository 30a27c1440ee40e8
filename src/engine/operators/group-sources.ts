import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../../core/source.ts';
import { fileSource } from './fileSource.ts';
import { generatorSource } from './generatorSource.ts';
import { feedSource } from './feedSource.ts';

// Engine implementations of the sources kinds. Each kind has its own file; this list only gathers them.
export const sourcesOperators: OperatorDefinition<any>[] = [];
export const sourcesSources: SourceDefinition<any>[] = [fileSource, generatorSource, feedSource];
