import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../../core/source.ts';
import { join } from './join.ts';
import { intervalJoin } from './intervalJoin.ts';
import { temporalJoin } from './temporalJoin.ts';
import { lookupJoin } from './lookupJoin.ts';
import { windowJoin } from './windowJoin.ts';
import { semiJoin } from './semiJoin.ts';

// Engine implementations of the joins kinds. Each kind has its own file; this list only gathers them.
export const joinsOperators: OperatorDefinition<any>[] = [join, intervalJoin, temporalJoin, lookupJoin, windowJoin, semiJoin];
export const joinsSources: SourceDefinition<any>[] = [];
