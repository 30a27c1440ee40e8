import type { OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Row } from '../../core/types.ts';
import { compileExpr } from '../../expr/index.ts';
import type { ProjectParams } from '../../pipeline/kinds/project.ts';

export const project: OperatorDefinition<ProjectParams> = {
  kind: 'project',
  create({ ctx, params }) {
    const cols = params.fields.map((f) => [f.name, compileExpr(f.expr)] as const);
    return {
      processElement(el) {
        const row: Row = {};
        for (const [name, e] of cols) row[name] = e.evaluate(el.row) ?? null;
        ctx.emit(derived(el, row));
      },
    };
  },
};
