/** Every Flink SQL oracle script, and how a test feeds it its tables. */
import type { PipelineDocument } from '../../pipeline/document.ts';
import { TABLES } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { basicCases } from './basics.cases.ts';
import { aggregateCases } from './aggregates.cases.ts';
import { joinCases } from './joins.cases.ts';
import { seedCases } from './seeds.cases.ts';
import { windowedCases } from './windowed.cases.ts';
import { docsStyleCases } from './docsStyle.cases.ts';
import { functionCases } from './functions.cases.ts';
import { subqueryCases } from './subqueries.cases.ts';
import { shapeCases } from './shapes.cases.ts';
import { setOpCases } from './setOps.cases.ts';
import { overFunctionCases } from './overFunctions.cases.ts';
import { listAggCases } from './listAgg.cases.ts';
import { collectingCases } from './collecting.cases.ts';
import { unnestCases } from './unnest.cases.ts';
import { rankCases } from './ranks.cases.ts';

export const ALL_CASES: SqlOracleCase[] = [...basicCases, ...aggregateCases, ...joinCases, ...windowedCases, ...seedCases, ...docsStyleCases, ...functionCases, ...subqueryCases, ...shapeCases, ...setOpCases, ...overFunctionCases, ...listAggCases, ...collectingCases, ...unnestCases, ...rankCases];

/** The planned document with every file source reading its table's rows inline (the oracle's tables by default). */
export function withInlineData(doc: PipelineDocument, tables: Readonly<Record<string, readonly unknown[]>> = TABLES): PipelineDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) => {
      if (n.kind !== 'fileSource') return n;
      const rows = tables[n.id];
      if (!rows) throw new Error(`no data for table ${n.id}`);
      const { path: _path, ...params } = n.params as Record<string, unknown>;
      return { ...n, kind: 'inlineSource', params: { ...params, rows } };
    }),
  };
}
