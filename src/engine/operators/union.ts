import type { OperatorDefinition } from '../operator.ts';

export const union: OperatorDefinition = {
  kind: 'union',
  create({ ctx }) {
    return { processElement: (el) => ctx.emit(el) };
  },
};
