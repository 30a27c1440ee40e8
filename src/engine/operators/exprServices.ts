import type { OperatorContext } from '../operator.ts';
import type { ExprServices } from '../../expr/index.ts';

/** What an operator's expressions may know: its clock, and the declared field types of one input. */
export const exprServices = (ctx: OperatorContext, port = 'in'): ExprServices => ({
  currentWatermark: () => ctx.currentWatermark(),
  inputTypes: ctx.inputs[port]?.fields ?? null,
});
