/* eslint-disable @typescript-eslint/no-explicit-any */
import type { KindSpec } from '../kindSpec.ts';
import { topNSpec } from './topN.ts';
import { dedupSpec } from './dedup.ts';
import { broadcastProcessSpec } from './broadcastProcess.ts';
import { processSpec } from './process.ts';

// Specs of the state kinds. Each kind has its own file; this list only gathers them.
export const stateSpecs: KindSpec<any>[] = [topNSpec, dedupSpec, broadcastProcessSpec, processSpec];
