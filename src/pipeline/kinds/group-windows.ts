import type { KindSpec } from '../kindSpec.ts';
import { windowSpec } from './window.ts';
import { overAggregateSpec } from './overAggregate.ts';

// Specs of the windows kinds. Each kind has its own file; this list only gathers them.
export const windowsSpecs: KindSpec<any>[] = [windowSpec, overAggregateSpec];
