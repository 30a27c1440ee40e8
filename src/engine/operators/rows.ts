import type { Row } from '../../core/types.ts';

export const isObject = (x: unknown): x is Row => x !== null && typeof x === 'object' && !Array.isArray(x);
