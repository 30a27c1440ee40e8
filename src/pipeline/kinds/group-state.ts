import type { KindSpec } from '../kindSpec.ts';

// Specs of the state kinds. Each kind has its own file; this list only gathers them.
export const stateSpecs: KindSpec<any>[] = [];
