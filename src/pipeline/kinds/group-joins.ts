import type { KindSpec } from '../kindSpec.ts';

// Specs of the joins kinds. Each kind has its own file; this list only gathers them.
export const joinsSpecs: KindSpec<any>[] = [];
