/* eslint-disable @typescript-eslint/no-explicit-any */
import type { OperatorDefinition } from '../operator.ts';
import type { SourceDefinition } from '../../core/source.ts';
import { topN } from './topN.ts';
import { dedup } from './dedup.ts';
import { broadcastProcess } from './broadcastProcess.ts';
import { keyedProcess } from './process.ts';

// Engine implementations of the state kinds. Each kind has its own file; this list only gathers them.
export const stateOperators: OperatorDefinition<any>[] = [topN, dedup, broadcastProcess, keyedProcess];
export const stateSources: SourceDefinition<any>[] = [];
