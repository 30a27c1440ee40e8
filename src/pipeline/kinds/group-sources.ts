import type { KindSpec } from '../kindSpec.ts';
import { fileSourceSpec } from './fileSource.ts';
import { generatorSourceSpec } from './generatorSource.ts';
import { feedSourceSpec } from './feedSource.ts';

// Specs of the sources kinds. Each kind has its own file; this list only gathers them.
export const sourcesSpecs: KindSpec<any>[] = [fileSourceSpec, generatorSourceSpec, feedSourceSpec];
