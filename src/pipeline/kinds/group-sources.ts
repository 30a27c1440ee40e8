import type { KindSpec } from '../kindSpec.ts';

// Specs of the sources kinds. Each kind has its own file; this list only gathers them.
export const sourcesSpecs: KindSpec<any>[] = [];
