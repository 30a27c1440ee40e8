import type { Arrangement, Operator, OperatorDefinition } from '../operator.ts';
import type { Element, Key, Row } from '../../core/types.ts';
import { changelogTable, sortTableRows, tableKey } from './changelogTable.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import type { LogSinkParams, ViewSinkParams } from '../../pipeline/kinds/sinks.ts';

/** Every sink exposes its table; the runtime reads it for views, pull queries and CLI output. */
export interface SinkOperator extends Operator {
  rows(): Row[];
  lookup(key: Key): Row | undefined;
}

/**
 * The primary key of a sink's table, which also orders its rows: a view's own key or else its
 * input's unique key; log and collect sinks hold their rows as a multiset (no key; see
 * multisetTable for how it is keyed and kept). Readers
 * that merge a parallel sink's parts sort by this too, so they order rows as one table would.
 */
export function sinkPrimaryKey(kind: string, params: { primaryKey?: string[] }, inputs: Record<string, StreamInfo | undefined>): string[] | null {
  return kind === 'viewSink' ? (params.primaryKey ?? inputs.in?.uniqueKey ?? null) : null;
}

export const viewSink: OperatorDefinition<ViewSinkParams> = {
  kind: 'viewSink',
  // Parallel views must see every change of one primary key (or, without one, of one row) in the same subtask.
  keyFields: (p, _port, inputs) => tableKey(sinkPrimaryKey('viewSink', p, inputs), inputs),
  create({ ctx, params }): ViewSinkOperator {
    const primaryKey = sinkPrimaryKey('viewSink', params, ctx.inputs);
    const table = changelogTable(ctx, primaryKey);
    let shared: Arrangement | null = null;
    return {
      // Chained: the upstream's arrangement is this table, so a change has nothing left to do here
      // (the runner still buffers it into the published changelog).
      processElement: (el) => {
        if (!shared) table.apply(el);
      },
      rows: () => (shared ? sortTableRows(shared.rows(), primaryKey) : table.rows()),
      lookup: (key) => (shared ? shared.lookup(key) : table.lookup(key)),
      readFrom(a) {
        shared = a;
      },
    };
  },
};

/** A view that the runtime can chain behind an operator whose arrangement it then reads (see runtime/chaining.ts). */
export interface ViewSinkOperator extends SinkOperator {
  /** From now on the view is `a`: it keeps no rows of its own. Called before the first element. */
  readFrom(a: Arrangement): void;
}

export const formatChangelogLine = (el: Element): string => `${el.kind} ${JSON.stringify(el.row)}`;

export const logSink: OperatorDefinition<LogSinkParams> = {
  kind: 'logSink',
  keyFields: (_p, _port, inputs) => tableKey(null, inputs),
  create({ ctx, params }): SinkOperator & { lines(): string[] } {
    const table = changelogTable(ctx, null);
    const max = params.maxLines ?? 1000;
    const lines: string[] = [];
    return {
      processElement(el) {
        table.apply(el);
        lines.push(formatChangelogLine(el));
        if (lines.length > max) lines.splice(0, lines.length - max);
      },
      rows: table.rows,
      lookup: table.lookup,
      lines: () => [...lines],
    };
  },
};

export const collectSink: OperatorDefinition = {
  kind: 'collectSink',
  keyFields: (_p, _port, inputs) => tableKey(null, inputs),
  create({ ctx }): SinkOperator {
    const table = changelogTable(ctx, null);
    return { processElement: (el) => table.apply(el), rows: table.rows, lookup: table.lookup };
  },
};
