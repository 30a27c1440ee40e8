import type { KindSpec } from '../kindSpec.ts';
import { joinSpec } from './join.ts';
import { intervalJoinSpec } from './intervalJoin.ts';
import { temporalJoinSpec } from './temporalJoin.ts';
import { lookupJoinSpec } from './lookupJoin.ts';
import { windowJoinSpec } from './windowJoin.ts';
import { semiJoinSpec } from './semiJoin.ts';

// Specs of the joins kinds. Each kind has its own file; this list only gathers them.
export const joinsSpecs: KindSpec<any>[] = [joinSpec, intervalJoinSpec, temporalJoinSpec, lookupJoinSpec, windowJoinSpec, semiJoinSpec];
