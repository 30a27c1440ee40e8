/** CREATE TABLE and INSERT INTO for each sink. */
import type { PlanNode } from '../../pipeline/plan.ts';
import type { ExportContext, Relation } from './context.ts';
import { nodeAnnotation } from './context.ts';
import type { SinkConnector } from './options.ts';
import { defaultSinkConnector, isSinkConnector } from './options.ts';
import { acceptsUpdates, connectorOptions, needsPrimaryKey, takesPrimaryKey, withClause } from './connectors.ts';
import type { TableDdl } from './sources.ts';
import { ident, identList, sqlType } from './sqlText.ts';

export interface SinkSql {
  ddl: TableDdl;
  insert: string;
}

/** The view's primary key: declared, else the key the upstream updates by; null when there is none. */
function primaryKey(node: PlanNode, input: Relation): string[] | null {
  const declared = node.params.primaryKey as string[] | undefined;
  if (declared?.length) return declared;
  if (node.kind === 'viewSink' && input.uniqueKey?.length) return input.uniqueKey;
  return null;
}

function chooseConnector(node: PlanNode, input: Relation, key: string[] | null, cx: ExportContext): SinkConnector {
  const updating = input.changelog === 'update';
  const fallback = defaultSinkConnector(node.kind, key !== null, updating);
  const chosen = cx.options.connectors?.[node.id];
  if (chosen === undefined) return fallback;
  if (!isSinkConnector(chosen)) {
    cx.warn(node.id, `connector "${chosen}" cannot write a sink; using ${fallback}`);
    return fallback;
  }
  if (needsPrimaryKey(chosen) && !key) {
    cx.warn(node.id, `${chosen} needs a primary key and this sink has none; using ${fallback}`);
    return fallback;
  }
  if (updating && (!acceptsUpdates(chosen) || (chosen === 'jdbc' && !key))) {
    cx.warn(node.id, `${chosen} cannot take the updates (-U/+U/-D) this sink receives; using ${fallback}`);
    return fallback;
  }
  return chosen;
}

export function sinkSql(node: PlanNode, cx: ExportContext): SinkSql | null {
  const input = cx.input(node);
  if (!input) {
    cx.warn(node.id, 'the sink is fed by a stream Flink SQL cannot produce (see the upstream warnings), so it gets no table and no INSERT');
    return null;
  }
  let key = primaryKey(node, input);
  const connector = chooseConnector(node, input, key, cx);
  if (!takesPrimaryKey(connector)) key = null;
  const lines = input.columns.map((c) => `${ident(c)} ${sqlType(input.types[c])}`);
  if (key) lines.push(`PRIMARY KEY (${identList(key)}) NOT ENFORCED`);
  const comments = [`sink \`${node.id}\` (${node.kind}) → ${connector}${input.changelog === 'update' ? ', receives updates' : ''}`];
  if (connector === 'jdbc') comments.push("add 'username' and 'password' (or put them in the URL) for your database");
  if (connector === 'filesystem') comments.push('the streaming filesystem sink commits files on checkpoints');
  const options = connectorOptions({ node, connector, format: cx.options.kafkaFormat ?? 'json' });
  return {
    ddl: { name: node.id, comments, annotation: nodeAnnotation(node, cx.plan.doc, { params: node.params }), sql: `CREATE TABLE ${ident(node.id)} (\n${lines.map((l) => `  ${l}`).join(',\n')}\n) ${withClause(options)}` },
    insert: `INSERT INTO ${ident(node.id)}\nSELECT ${identList(input.columns)}\nFROM ${ident(input.name)}`,
  };
}
