import type { OperatorDefinition } from '../operator.ts';
import type { KeyByParams } from '../../pipeline/kinds/keyBy.ts';

export const keyBy: OperatorDefinition<KeyByParams> = {
  kind: 'keyBy',
  create({ ctx }) {
    return { processElement: (el) => ctx.emit(el) };
  },
};

/**
 * Definitions whose operator emits every input element unchanged to 'out' and holds no state.
 * Their task hands each input batch on as a whole instead of looping over it (Flink chains such
 * a forward operator into its neighbour; here it costs one array hand-over per batch).
 */
export const forwardsBatches: ReadonlySet<OperatorDefinition<never>> = new Set<OperatorDefinition<never>>([keyBy as OperatorDefinition<never>]);
