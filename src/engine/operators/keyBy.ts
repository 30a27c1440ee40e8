import type { OperatorDefinition } from '../operator.ts';
import type { KeyByParams } from '../../pipeline/kinds/keyBy.ts';

export const keyBy: OperatorDefinition<KeyByParams> = {
  kind: 'keyBy',
  create({ ctx }) {
    return { processElement: (el) => ctx.emit(el) };
  },
};
