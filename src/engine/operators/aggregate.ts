import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../types.ts';
import { isAddition } from '../types.ts';
import { AggregateSet } from '../aggregates.ts';
import { valueState } from '../../state/descriptors.ts';
import type { AggregateParams } from '../../pipeline/kinds/aggregate.ts';

/** Per group: how many rows are in it, one accumulator per call, and the row last emitted. */
interface GroupState {
  n: number;
  accs: unknown[];
  out: Row | null;
}

export const aggregate: OperatorDefinition<AggregateParams> = {
  kind: 'aggregate',
  keyFields: (p) => p.groupBy,
  create({ ctx, params }) {
    const calls = new AggregateSet(params.aggregates);
    const groupBy = params.groupBy;
    const group = ctx.state.value(valueState<GroupState>('group'));
    // Every result row has exactly these columns, so comparing them replaces two for-in walks.
    const columns = [...groupBy, ...params.aggregates.map((c) => c.as)];
    const unchanged = (a: Row, b: Row): boolean => {
      for (let i = 0; i < columns.length; i++) if (a[columns[i]] !== b[columns[i]]) return false;
      return true;
    };
    return {
      processElement(el) {
        let g = group.value();
        if (!g) g = { n: 0, accs: calls.create(), out: null };
        if (isAddition(el.kind)) {
          g.n++;
          calls.add(g.accs, el.row);
        } else {
          if (g.n === 0) return ctx.deadLetter('retraction for a group that holds no rows', el.row);
          g.n--;
          calls.retract(g.accs, el.row);
        }
        const prev = g.out;
        if (g.n === 0) {
          group.clear();
          if (prev) ctx.emit({ kind: '-D', row: prev, ts: el.ts });
          return;
        }
        const next: Row = {};
        for (const f of groupBy) next[f] = el.row[f] ?? null;
        calls.write(g.accs, next);
        g.out = next;
        group.update(g);
        if (!prev) ctx.emit({ kind: '+I', row: next, ts: el.ts });
        else if (!unchanged(prev, next)) {
          ctx.emit({ kind: '-U', row: prev, ts: el.ts });
          ctx.emit({ kind: '+U', row: next, ts: el.ts });
        }
      },
    };
  },
};
